"""Runnable examples for accumulated_loss_backward_in_loop (kept apart: the rule module stays small)."""
from __future__ import annotations

from ..base import Example
from .accumulated_loss_backward_in_loop_total_examples import TOTAL_BAD

BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 3)
images = torch.randn(5, 4)
targets = torch.randint(0, 3, (5,))
loss = 0
for j in range(len(images)):
    output = model(images[j : j + 1])
    loss += torch.nn.functional.cross_entropy(output, targets[j : j + 1])
    loss.backward()
""", line=9, fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 3)
images = torch.randn(5, 4)
targets = torch.randint(0, 3, (5,))
loss = 0
for j in range(len(images)):
    output = model(images[j : j + 1])
    loss += torch.nn.functional.cross_entropy(output, targets[j : j + 1])
loss.backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
total = torch.zeros(())
for step in range(4):
    x = torch.randn(16, 3)
    pred = net(x)
    total = total + ((pred - x.sum(1, keepdim=True)) ** 2).mean()
    opt.zero_grad()
    (total / (step + 1)).backward()
    opt.step()
""", line=9, fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
total = torch.zeros(())
for step in range(4):
    x = torch.randn(16, 3)
    pred = net(x)
    step_loss = ((pred - x.sum(1, keepdim=True)) ** 2).mean()
    total = total + step_loss.item()
    opt.zero_grad()
    step_loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def train_step(x, running):
    opt.zero_grad()
    loss = net(x).pow(2).mean()
    running = running + 0.5 * loss
    running.backward()
    opt.step()
    return running


running = torch.zeros(())
for step in range(3):
    running = train_step(torch.randn(4, 3), running)
""", line=10, fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def train_step(x, running):
    opt.zero_grad()
    loss = net(x).pow(2).mean()
    running = running + 0.5 * loss.item()
    loss.backward()
    opt.step()
    return running


running = torch.zeros(())
for step in range(3):
    running = train_step(torch.randn(4, 3), running)
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.Adam(net.parameters(), lr=0.1)
meter = {"sum": 0.0, "n": 0}
for step in range(3):
    loss = net(torch.randn(4, 3)).pow(2).mean()
    meter["sum"] += loss
    meter["n"] += 1
    avg = meter["sum"] / meter["n"]
    opt.zero_grad()
    avg.backward()
    opt.step()
""", line=8, fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.Adam(net.parameters(), lr=0.1)
meter = {"sum": 0.0, "n": 0}
for step in range(3):
    loss = net(torch.randn(4, 3)).pow(2).mean()
    meter["sum"] += loss.item()
    meter["n"] += 1
    avg = meter["sum"] / meter["n"]
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
seq = torch.randn(5, 3, 2)
for epoch in range(2):
    loss = 0.0
    for t in range(4):
        loss = loss + (net(seq[t]) - seq[t + 1]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
""", line=9, fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
seq = torch.randn(5, 3, 2)
for epoch in range(2):
    loss = 0.0
    for t in range(4):
        loss = loss + (net(seq[t]) - seq[t + 1]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
net = torch.nn.Linear(3, 2)
totals = {"a": 0.0, "b": 0.0}
for step in range(3):
    out = net(torch.randn(4, 3))
    losses = {"a": out[:, 0].pow(2).mean(), "b": out[:, 1].abs().mean()}
    for k, v in losses.items():
        totals[k] = totals[k] + v
    loss = sum(totals.values())
    loss.backward()
""", line=8, fixed="""\
import torch
net = torch.nn.Linear(3, 2)
totals = {"a": 0.0, "b": 0.0}
for step in range(3):
    out = net(torch.randn(4, 3))
    losses = {"a": out[:, 0].pow(2).mean(), "b": out[:, 1].abs().mean()}
    for k, v in losses.items():
        totals[k] = totals[k] + v.item()
    loss = sum(losses.values())
    loss.backward()
"""),
    Example(code="""\
import torch
cell = torch.nn.GRUCell(2, 3)
loss = 0
for epoch in range(2):
    for seq in torch.randn(2, 3, 1, 2):
        h = torch.zeros(1, 3)
        for x in seq:
            h = cell(x, h)
            loss += h.pow(2).mean()
        loss.backward()
""", line=9, fixed="""\
import torch
cell = torch.nn.GRUCell(2, 3)
for epoch in range(2):
    for seq in torch.randn(2, 3, 1, 2):
        loss = 0
        h = torch.zeros(1, 3)
        for x in seq:
            h = cell(x, h)
            loss += h.pow(2).mean()
        loss.backward()
"""),
    Example(code="""\
import torch
net = torch.nn.Linear(3, 1)
acc = 0
for step in range(1, 5):
    acc = acc + net(torch.randn(2, 3)).pow(2).mean()
    if step % 2 == 0:
        (acc / 2).backward()
""", line=5, fixed="""\
import torch
net = torch.nn.Linear(3, 1)
acc = 0
for step in range(1, 5):
    acc = acc + net(torch.randn(2, 3)).pow(2).mean()
    if step % 2 == 0:
        (acc / 2).backward()
        acc = 0
"""),
) + TOTAL_BAD

GOOD = (
    Example(code="""\
import torch
model = torch.nn.Linear(4, 3)
images = torch.randn(5, 4)
targets = torch.randint(0, 3, (5,))
loss = 0
for j in range(len(images)):
    loss += torch.nn.functional.cross_entropy(model(images[j : j + 1]), targets[j : j + 1])
loss.backward()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(4, 3)
running = 0.0
for j in range(5):
    loss = model(torch.randn(2, 4)).pow(2).mean()
    loss.backward()
    running += loss.item()
"""),
)
