# source: https://github.com/meta-recsys/generative-recommenders/pull/332 (train_loop of generative_recommenders/dlrm_v3/train/utils.py as it was before commit bcb3aee, without gin, the profiler and save_dmp_checkpoint; a tiny two-tower stand-in for the DLRMv3/HSTU model with the same forward outputs (aux_losses dict, multitask predictions, labels, weights), a minimal MetricsLogger, and random user-history / candidate features instead of the KeyedJaggedTensor dataloader)
# style: tabular
# cause: grads_not_zeroed
# line: 106
# expert: train_loop calls sum(aux_losses.values()).backward() and optimizer.step() for every sample but never clears the gradients, so each step applies the sum of all gradients seen so far. The merged fix adds optimizer.zero_grad() at the top of the per-sample loop, before the forward pass.
from typing import Dict, Optional

import torch
import torch.nn as nn
from torch.optim import Optimizer

torch.manual_seed(0)


class Sample:
    def __init__(self, uih, cand, labels):
        self.uih_features_kjt = uih
        self.candidates_features_kjt = cand
        self.labels = labels

    def to(self, device):
        self.uih_features_kjt = self.uih_features_kjt.to(device)
        self.candidates_features_kjt = self.candidates_features_kjt.to(device)
        self.labels = self.labels.to(device)


class TinyDlrmV3(nn.Module):
    """Stand-in for the DLRMv3 ranking model: user history tower + candidate tower, two task heads."""

    def __init__(self, n_items=50, dim=16, n_tasks=2):
        super().__init__()
        self.item_emb = nn.Embedding(n_items, dim)
        self.uih_encoder = nn.GRU(dim, dim, batch_first=True)
        self.heads = nn.Linear(2 * dim, n_tasks)
        self._labels = None

    def forward(self, uih_features_kjt, candidates_features_kjt):
        _, h = self.uih_encoder(self.item_emb(uih_features_kjt))
        cand = self.item_emb(candidates_features_kjt)
        logits = self.heads(torch.cat([h[-1], cand], dim=-1))
        labels = self._labels
        weights = torch.ones_like(labels)
        aux_losses = {
            f"task_{t}": nn.functional.binary_cross_entropy_with_logits(logits[:, t], labels[:, t])
            for t in range(logits.shape[1])
        }
        return None, None, aux_losses, torch.sigmoid(logits).detach(), labels, weights


class MetricsLogger:
    def __init__(self):
        self.reset()

    def reset(self):
        self.n, self.correct = 0, 0.0

    def update(self, predictions, labels, weights):
        self.correct += ((predictions > 0.5).float() == labels).float().sum().item()
        self.n += labels.numel()

    def compute_and_log(self, additional_logs: Optional[Dict] = None):
        losses = {k: round(v.item(), 4) for k, v in (additional_logs or {}).get("losses", {}).items()}
        print(f"acc {self.correct / max(self.n, 1):.3f} losses {losses}")


def make_dataloader(n_batches=12, batch_size=8):
    out = []
    for _ in range(n_batches):
        uih = torch.randint(0, 50, (batch_size, 10))
        cand = torch.randint(0, 50, (batch_size,))
        labels = (torch.rand(batch_size, 2) < 0.3).float()
        out.append(Sample(uih, cand, labels))
    return out


def train_loop(
    rank: int,
    model: torch.nn.Module,
    dataloader,
    optimizer: Optimizer,
    metric_logger: MetricsLogger,
    device: torch.device,
    num_epochs: int,
    num_batches: Optional[int] = None,
    metric_log_frequency: int = 1,
) -> None:
    model = model.train()
    batch_idx: int = 0

    for _ in range(num_epochs):
        for sample in dataloader:
            optimizer.zero_grad()
            sample.to(device)
            model._labels = sample.labels
            (
                _,
                _,
                aux_losses,
                mt_target_preds,
                mt_target_labels,
                mt_target_weights,
            ) = model.forward(
                sample.uih_features_kjt,
                sample.candidates_features_kjt,
            )
            sum(aux_losses.values()).backward()
            optimizer.step()
            metric_logger.update(
                predictions=mt_target_preds,
                labels=mt_target_labels,
                weights=mt_target_weights,
            )
            if batch_idx % metric_log_frequency != 0:
                metric_logger.compute_and_log(
                    additional_logs={
                        "losses": aux_losses,
                    }
                )
            batch_idx += 1
            if num_batches is not None and batch_idx >= num_batches:
                break
        if num_batches is not None and batch_idx >= num_batches:
            break


model = TinyDlrmV3()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loop(0, model, make_dataloader(), optimizer, MetricsLogger(), torch.device("cpu"), num_epochs=2,
           metric_log_frequency=4)
