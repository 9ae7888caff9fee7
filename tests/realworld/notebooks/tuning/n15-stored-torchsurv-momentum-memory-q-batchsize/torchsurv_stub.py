"""Stand-in for torchsurv 0.1.x: torchsurv.loss.momentum.Momentum (as of 2024-07) and a
Breslow-style torchsurv.loss.cox.neg_partial_log_likelihood."""
import collections
import copy

import torch
from torch import nn


def neg_partial_log_likelihood(log_hz, event, time, reduction="mean"):
    """negative Cox partial log likelihood (ties handled Breslow-style)"""
    log_hz = log_hz.squeeze(-1) if log_hz.dim() > 1 else log_hz
    idx = torch.argsort(time, descending=True)
    log_hz_sorted, event_sorted = log_hz[idx], event[idx]
    log_cumsum_hz = torch.logcumsumexp(log_hz_sorted, dim=0)
    pll = (log_hz_sorted - log_cumsum_hz)[event_sorted]
    return -pll.mean() if reduction == "mean" else -pll.sum()


class Momentum(nn.Module):
    """Survival framework to momentum update learning to decouple batch size during model training.

    The online network is trained using a memory bank of previously computed log hazards,
    but only tracking loss from current batch.
    """

    def __init__(self, backbone: nn.Module, loss, batchsize: int = 16, steps: int = 10, rate: float = 0.999):
        super().__init__()
        self.rate = rate
        self.online = copy.deepcopy(backbone)  # q >> online network
        self.target = copy.deepcopy(backbone)  # k >> target network (momentum)
        self._init_encoder_k()
        self.loss = loss

        # survival data structure
        self.survtuple = collections.namedtuple("survival", ["estimate", "event", "time"])

        # Hazards: current batch & memory
        self.memory_q = collections.deque(maxlen=batchsize)  # online (q)
        self.memory_k = collections.deque(maxlen=batchsize * steps)  # target (k)

    def forward(self, inputs: torch.Tensor, event: torch.Tensor, time: torch.Tensor) -> torch.Tensor:
        estimate_q = self.online(inputs)
        for estimate in zip(estimate_q, event, time):
            self.memory_q.append(self.survtuple(*list(estimate)))
        loss = self._bank_loss()
        with torch.no_grad():
            self._update_momentum_encoder()
            estimate_k = self.target(inputs)
            for estimate in zip(estimate_k, event, time):
                self.memory_k.append(self.survtuple(*list(estimate)))
        return loss

    @torch.no_grad()
    def infer(self, inputs: torch.Tensor) -> torch.Tensor:
        self.target.eval()
        return self.target(inputs)

    def _bank_loss(self) -> torch.Tensor:
        """computer the negative loss likelyhood from memory bank"""
        # Combine current batch and momentum
        bank = self.memory_k + self.memory_q
        assert all(x in bank[0]._fields for x in ["estimate", "event", "time"]), "All fields must be present"
        return self.loss(
            torch.stack([mem.estimate.cpu() for mem in bank]).squeeze(),
            torch.stack([mem.event.cpu() for mem in bank]).squeeze(),
            torch.stack([mem.time.cpu() for mem in bank]).squeeze(),
        )

    @torch.no_grad()
    def _update_momentum_encoder(self):
        """Exponential moving average"""
        for param_b, param_m in zip(self.online.parameters(), self.target.parameters()):
            param_m.data = param_m.data * self.rate + param_b.data * (1.0 - self.rate)

    @torch.no_grad()
    def _init_encoder_k(self):
        for param_q, param_k in zip(self.online.parameters(), self.target.parameters()):
            param_k.data.copy_(param_q.data)
            param_k.requires_grad = False
