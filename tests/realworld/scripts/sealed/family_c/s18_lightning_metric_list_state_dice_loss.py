# source: https://github.com/Lightning-AI/pytorch-lightning/issues/4098 (fixed by https://github.com/Lightning-AI/pytorch-lightning/pull/4313; pytorch_lightning/metrics/metric.py Metric as it was before that PR, at e95a1b2^, cut down to one process; the reporter's DifferentiableDiceCoefficient is only partly quoted in the issue, so it is written here from its description: a list state holding the per-batch differentiable dice results, used as the training loss in training_step; a plain loop and a tiny segmentation net on random 16x16 masks instead of the Lightning Trainer and the reporter's data)
# style: vision
# cause: graph_kept_alive
# line: 56
# expert: Metric.forward first calls self.update(*args, **kwargs) to add the step to the accumulated state, with grad enabled, so the list state keeps every step's differentiable dice result and with it that step's whole autograd graph until compute()/reset() at epoch end; memory grows with every training step. The maintainers' fix (PR #4313, "Detach bugfix") runs that accumulating update under torch.no_grad() so the metric states are detached from the graph, while the per-step value returned by forward stays differentiable.
import functools
from abc import ABC, abstractmethod
from copy import deepcopy
from typing import Any, Callable, Optional, Union

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)


# ---- pytorch_lightning/metrics/metric.py (cut down) -------------------------------------------
class Metric(nn.Module, ABC):
    def __init__(
        self,
        compute_on_step: bool = True,
        dist_sync_on_step: bool = False,
        process_group: Optional[Any] = None,
    ):
        super().__init__()

        self.dist_sync_on_step = dist_sync_on_step
        self.compute_on_step = compute_on_step
        self.process_group = process_group
        self._to_sync = True

        self.update = self._wrap_update(self.update)
        self.compute = self._wrap_compute(self.compute)
        self._computed = None
        self._forward_cache = None

        # initialize state
        self._reductions = {}
        self._defaults = {}

    def add_state(self, name: str, default, dist_reduce_fx: Optional[Union[str, Callable]] = None, persistent: bool = True):
        if isinstance(default, torch.Tensor):
            self.register_buffer(name, default, persistent=persistent)
        else:
            setattr(self, name, default)

        self._defaults[name] = deepcopy(default)
        self._reductions[name] = dist_reduce_fx

    def forward(self, *args, **kwargs):
        """
        Automatically calls ``update()``. Returns the metric value over inputs if ``compute_on_step`` is True.
        """
        # add current step
        self.update(*args, **kwargs)
        self._forward_cache = None

        if self.compute_on_step:
            self._to_sync = self.dist_sync_on_step

            # save context before switch
            self._cache = {attr: getattr(self, attr) for attr in self._defaults.keys()}

            # call reset, update, compute, on single batch
            self.reset()
            self.update(*args, **kwargs)
            self._forward_cache = self.compute()

            # restore context
            for attr, val in self._cache.items():
                setattr(self, attr, val)
            self._to_sync = True
            self._computed = None

            return self._forward_cache

    def _wrap_update(self, update):
        @functools.wraps(update)
        def wrapped_func(*args, **kwargs):
            self._computed = None
            return update(*args, **kwargs)
        return wrapped_func

    def _wrap_compute(self, compute):
        @functools.wraps(compute)
        def wrapped_func(*args, **kwargs):
            # return cached value
            if self._computed is not None:
                return self._computed
            self._computed = compute(*args, **kwargs)
            self.reset()
            return self._computed

        return wrapped_func

    @abstractmethod
    def update(self) -> None:  # pylint: disable=E0202
        pass

    @abstractmethod
    def compute(self):  # pylint: disable=E0202
        pass

    def reset(self):
        for attr, default in self._defaults.items():
            current_val = getattr(self, attr)
            if isinstance(current_val, torch.Tensor):
                setattr(self, attr, deepcopy(default).to(current_val.device))
            else:
                setattr(self, attr, deepcopy(default))


# ---- the reporter's loss-as-metric -------------------------------------------------------------
def differentiable_dice_score(input: torch.Tensor, target: torch.Tensor, include_background: bool = False,
                              eps: float = 1e-6) -> torch.Tensor:
    probs = F.softmax(input, dim=1)
    target_1hot = F.one_hot(target, num_classes=input.shape[1]).permute(0, 3, 1, 2).float()
    if not include_background:
        probs, target_1hot = probs[:, 1:], target_1hot[:, 1:]
    dims = (0, 2, 3)
    intersection = torch.sum(probs * target_1hot, dims)
    cardinality = torch.sum(probs + target_1hot, dims)
    return (2. * intersection / (cardinality + eps)).mean()


class DifferentiableDiceCoefficient(Metric):
    def __init__(self, include_background: bool = False, compute_on_step: bool = True,
                 dist_sync_on_step: bool = False, process_group: Optional[Any] = None):
        super().__init__(compute_on_step=compute_on_step, dist_sync_on_step=dist_sync_on_step,
                         process_group=process_group)
        self.include_background = include_background
        self.add_state("dice_by_steps", [])

    def update(self, input: torch.Tensor, target: torch.Tensor) -> None:
        self.dice_by_steps += [differentiable_dice_score(input, target, include_background=self.include_background)]

    def compute(self) -> torch.Tensor:
        return torch.mean(torch.stack(self.dice_by_steps))


# ---- training (stand-in for the LightningModule / Trainer) ------------------------------------
module = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
_dice = DifferentiableDiceCoefficient(include_background=False)
optimizer = torch.optim.Adam(module.parameters(), lr=1e-2)


def training_step(batch, batch_idx):
    x, y = batch
    y_hat = module(x)
    dice = _dice(y_hat, y)
    loss = 1 - dice
    return loss


for batch_idx in range(30):
    x = torch.rand(4, 1, 16, 16)
    y = (x[:, 0] * 3).long().clamp(max=2)
    loss = training_step((x, y), batch_idx)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if batch_idx % 10 == 0:
        print(f"step {batch_idx}: loss {loss.item():.4f}, accumulated states {len(_dice.dice_by_steps)}")

print("epoch dice", _dice.compute().item())
