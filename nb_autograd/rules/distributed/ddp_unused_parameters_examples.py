"""Runnable examples for ddp_unused_parameters (each needs a 2-rank torchrun run)."""
from __future__ import annotations

from ..base import Example

BAD = (
    Example(code="""\
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.aux_head = nn.Linear(4, 2)
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
dist.destroy_process_group()
""", line=11, needs=("torchrun",), note="a head defined in __init__ and never used in forward",
            fixed="""\
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.aux_head = nn.Linear(4, 2)
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(Net(), find_unused_parameters=True)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
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


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.aux_head = nn.Linear(4, 2)
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(Net(), find_unused_parameters=True)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
dist.destroy_process_group()
""", needs=("torchrun",)),
)
