"""Runnable examples for ddp_ready_twice (each needs a 2-rank torchrun run)."""
from __future__ import annotations

from ..base import Example

BAD = (
    Example(code="""\
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Linear(4, 4)
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        h = checkpoint(self.block, x, use_reentrant=True)
        h = checkpoint(self.block, h, use_reentrant=True)
        return self.head(h)


dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(Net(), find_unused_parameters=True)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    loss = model(torch.randn(8, 4, requires_grad=True)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
dist.destroy_process_group()
""", line=16, needs=("torchrun",),
            note="one block checkpointed twice with the reentrant checkpoint",
            fixed="""\
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Linear(4, 4)
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        h = checkpoint(self.block, x, use_reentrant=False)
        h = checkpoint(self.block, h, use_reentrant=False)
        return self.head(h)


dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(Net(), find_unused_parameters=True)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    loss = model(torch.randn(8, 4, requires_grad=True)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
dist.destroy_process_group()
"""),
)

GOOD = (
    Example(code="""\
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Linear(4, 4)
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        h = checkpoint(self.block, x, use_reentrant=False)
        h = checkpoint(self.block, h, use_reentrant=False)
        return self.head(h)


dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(Net(), find_unused_parameters=True)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    loss = model(torch.randn(8, 4, requires_grad=True)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
dist.destroy_process_group()
""", needs=("torchrun",)),
)
