"""Runnable examples for graph_kept_alive (kept apart: the rule module stays small)."""
from __future__ import annotations

from ..base import Example
from .graph_kept_alive_held_examples import HELD_BAD
from .graph_kept_alive_stored_examples import STORED_BAD
from .graph_kept_alive_totals_examples import TOTALS_BAD

BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
total_loss = 0
for step in range(5):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total_loss += loss
print(total_loss.item() / 5)
""", line=11, note="running loss kept as a tensor", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
total_loss = 0
for step in range(5):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total_loss += loss.detach()
print(total_loss.item() / 5)
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
outputs = []
for step in range(5):
    out = model(torch.randn(16, 8))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    outputs.append(out)
""", line=12, note="outputs appended with their graphs", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
outputs = []
for step in range(5):
    out = model(torch.randn(16, 8))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    outputs.append(out.detach())
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
x = torch.randn(16, 8)
total = torch.zeros(())
for step in range(5):
    loss = (model(x) - step).pow(2).mean()
    total = total + loss
    model.zero_grad()
    total.backward(retain_graph=True)
""", line=8, note="retain_graph=True on a growing total"),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
def train(steps):
    total_loss = 0
    for step in range(steps):
        loss = model(torch.randn(16, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total_loss += loss
    return total_loss.item()
train(6)
""", line=12, note="inside a function: seen while it runs", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
def train(steps):
    total_loss = 0
    for step in range(steps):
        loss = model(torch.randn(16, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total_loss += loss.detach()
    return total_loss.item()
train(6)
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
cell = torch.nn.RNNCell(4, 8)
h = torch.zeros(2, 8)
for t in range(6):
    h = cell(torch.randn(2, 4), h)
    loss = h.pow(2).mean()
    cell.zero_grad()
    loss.backward(retain_graph=True)
""", line=6, note="recurrent state kept with retain_graph=True"),
    Example(code="""\
import torch


class RunningNorm(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.lin = torch.nn.Linear(n, n)
        self.register_buffer("running_mean", torch.zeros(n))

    def forward(self, x):
        h = self.lin(x)
        mean = h.mean(0)
        self.running_mean.mul_(0.9).add_(mean * 0.1)
        return h - mean


net = RunningNorm(3)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(6):
    loss = net(torch.randn(8, 3)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=13, note="a running statistic updated from the step's graph chains every step", fixed="""\
import torch


class RunningNorm(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.lin = torch.nn.Linear(n, n)
        self.register_buffer("running_mean", torch.zeros(n))

    def forward(self, x):
        h = self.lin(x)
        mean = h.mean(0)
        self.running_mean.mul_(0.9).add_(mean.detach() * 0.1)
        return h - mean


net = RunningNorm(3)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(6):
    loss = net(torch.randn(8, 3)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
) + TOTALS_BAD + STORED_BAD + HELD_BAD

GOOD = (
    Example(code="""\
import torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
total_loss = 0.0
outputs = []
for step in range(5):
    out = model(torch.randn(16, 8))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total_loss += loss.item()
    outputs.append(out.detach())
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(8, 1)
losses = []
for step in range(5):
    losses.append(model(torch.randn(16, 8)).pow(2).mean())
total = torch.stack(losses).sum()
total.backward()
"""),
    Example(code="""\
import torch
cell = torch.nn.RNNCell(4, 8)
opt = torch.optim.SGD(cell.parameters(), lr=0.01)
for batch in range(4):
    h = torch.zeros(2, 8)
    for t in range(5):
        h = cell(torch.randn(2, 4), h)
    opt.zero_grad()
    h.pow(2).mean().backward()
    opt.step()
""", note="full backpropagation through time inside each step"),
    Example(code="""\
import torch


class RunningNorm(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.lin = torch.nn.Linear(n, n)
        self.register_buffer("running_mean", torch.zeros(n))

    def forward(self, x):
        h = self.lin(x)
        mean = h.mean(0)
        self.running_mean.mul_(0.9).add_(mean.detach() * 0.1)
        return h - mean


net = RunningNorm(3)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(6):
    loss = net(torch.randn(8, 3)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
w = torch.randn(4, 4) * 0.1
pos = torch.randn(8, 4)
for step in range(30):
    pos.requires_grad_(True)
    energy = (pos @ w).pow(2).sum()
    force = -torch.autograd.grad(energy, pos)[0]
    pos = pos + 0.01 * force
""", note="positions moved by detached forces: a chain of nodes that save nothing, no memory kept"),
)
