"""Runnable examples for shared_subgraph_multiple_backward (kept apart: the rule module stays small)."""
from __future__ import annotations

from ..base import Example
from .shared_subgraph_multiple_backward_methods_examples import METHODS_BAD
from .shared_subgraph_multiple_backward_steps_examples import PER_STEP_BAD, PER_STEP_GOOD

BAD = (
    Example(code="""\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
m = y.sum()
n = (y * 3).sum()
m.backward()
n.backward()
""", line=6, fixed="""\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
m = y.sum()
n = (y * 3).sum()
(m + n).backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
G = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
D = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
opt_g = torch.optim.SGD(G.parameters(), lr=0.01)
opt_d = torch.optim.SGD(D.parameters(), lr=0.01)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(3):
    real = torch.randn(8, 2) + 2
    fake = G(torch.randn(8, 2))
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(D(fake), torch.zeros(8, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(8, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
""", line=11, fixed="""\
import torch
torch.manual_seed(0)
G = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
D = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
opt_g = torch.optim.SGD(G.parameters(), lr=0.01)
opt_d = torch.optim.SGD(D.parameters(), lr=0.01)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(3):
    real = torch.randn(8, 2) + 2
    fake = G(torch.randn(8, 2))
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(D(fake.detach()), torch.zeros(8, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(8, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
G, D = torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)


def d_step(real, fake):
    (D(real).mean() - D(fake).mean()).backward()


def g_step(fake):
    D(fake).mean().backward()


for step in range(2):
    fake = G(torch.randn(4, 2))
    d_step(torch.randn(4, 2), fake)
    g_step(fake)
""", line=11, fixed="""\
import torch
torch.manual_seed(0)
G, D = torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)


def d_step(real, fake):
    (D(real).mean() - D(fake.detach()).mean()).backward()


def g_step(fake):
    D(fake).mean().backward()


for step in range(2):
    fake = G(torch.randn(4, 2))
    d_step(torch.randn(4, 2), fake)
    g_step(fake)
"""),
    Example(code="""\
import torch
net = torch.nn.Linear(3, 4)
for step in range(2):
    feat = net(torch.randn(5, 3)).relu()
    losses = {"a": feat[:, :2].mean(), "b": feat[:, 2:].pow(2).mean()}
    for name, l in losses.items():
        l.backward()
""", line=7, fixed="""\
import torch
net = torch.nn.Linear(3, 4)
for step in range(2):
    feat = net(torch.randn(5, 3)).relu()
    losses = {"a": feat[:, :2].mean(), "b": feat[:, 2:].pow(2).mean()}
    sum(losses.values()).backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
trunk = torch.nn.Linear(3, 4)
heads = torch.nn.ModuleList([torch.nn.Linear(4, 1) for _ in range(2)])
opt = torch.optim.SGD([*trunk.parameters(), *heads.parameters()], lr=0.1)
x = torch.randn(5, 3)
for step in range(2):
    h = trunk(x)
    opt.zero_grad()
    for head in heads:
        loss = head(h).pow(2).mean()
        loss.backward()
    opt.step()
""", line=12, note="each head's loss backpropagates through the trunk graph the first head freed", fixed="""\
import torch
torch.manual_seed(0)
trunk = torch.nn.Linear(3, 4)
heads = torch.nn.ModuleList([torch.nn.Linear(4, 1) for _ in range(2)])
opt = torch.optim.SGD([*trunk.parameters(), *heads.parameters()], lr=0.1)
x = torch.randn(5, 3)
for step in range(2):
    h = trunk(x)
    opt.zero_grad()
    total_loss = 0
    for head in heads:
        loss = head(h).pow(2).mean()
        total_loss = total_loss + loss
    total_loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(16, 4), torch.randn(16, 1)
for step in range(3):
    out = model(x)
    loss = torch.nn.functional.mse_loss(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    second = torch.nn.functional.mse_loss(out, y)
    opt.zero_grad()
    second.backward()
    opt.step()
""", line=12, fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(16, 4), torch.randn(16, 1)
for step in range(3):
    out = model(x)
    loss = torch.nn.functional.mse_loss(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    second = torch.nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    second.backward()
    opt.step()
"""),  # a second pass after a step (SAM): the first loss trains only through `out`, so recompute it
    Example(code="""\
import torch
torch.manual_seed(0)
G, D = torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)
opt_g, opt_d = torch.optim.SGD(G.parameters(), lr=0.01), torch.optim.SGD(D.parameters(), lr=0.01)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(3):
    fake = G(torch.randn(4, 2))
    out = D(fake)
    d_loss = bce(out, torch.zeros(4, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(out, torch.ones(4, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
""", line=8, fixed="""\
import torch
torch.manual_seed(0)
G, D = torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)
opt_g, opt_d = torch.optim.SGD(G.parameters(), lr=0.01), torch.optim.SGD(D.parameters(), lr=0.01)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(3):
    fake = G(torch.randn(4, 2))
    out = D(fake.detach())
    d_loss = bce(out, torch.zeros(4, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(4, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
"""),  # the discriminator's output reused for the generator step: detach `fake` for D, run D again for G
    Example(code="""\
import torch
torch.manual_seed(0)
G, D = torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)
opt_g = torch.optim.SGD(G.parameters(), lr=0.01)
opt_d = torch.optim.SGD(D.parameters(), lr=0.01)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(3):
    fake = G(torch.randn(4, 2))
    g_loss = bce(D(fake), torch.ones(4, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    d_loss = bce(D(torch.randn(4, 2)), torch.ones(4, 1)) + bce(D(fake), torch.zeros(4, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
""", line=13, fixed="""\
import torch
torch.manual_seed(0)
G, D = torch.nn.Linear(2, 2), torch.nn.Linear(2, 1)
opt_g = torch.optim.SGD(G.parameters(), lr=0.01)
opt_d = torch.optim.SGD(D.parameters(), lr=0.01)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(3):
    fake = G(torch.randn(4, 2))
    g_loss = bce(D(fake), torch.ones(4, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    d_loss = bce(D(torch.randn(4, 2)), torch.ones(4, 1)) + bce(D(fake.detach()), torch.zeros(4, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
"""),  # the generator step first, then the discriminator's loss on the same `fake`: detach it there
) + METHODS_BAD + PER_STEP_BAD
GOOD = (
    Example(code="""\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
m = (x ** 2).sum()
n = (x ** 3).sum()
m.backward()
n.backward()
"""),
    Example(code="""\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
(y.sum() + (y * 3).sum()).backward()
"""),
) + PER_STEP_GOOD
