"""Runnable examples for grads_not_zeroed (kept apart: the rule module stays small)."""
from __future__ import annotations

from ..base import Example

BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(5):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    loss.backward()
    opt.step()
""", line=7, fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(5):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
optimizer.zero_grad()
for epoch in range(2):
    for step in range(3):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        loss.backward()
        optimizer.step()
""", line=5, note="zero_grad once, before the loop", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
optimizer.zero_grad()
for epoch in range(2):
    for step in range(3):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
x, y = torch.randn(32, 3), torch.randn(32)
w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.05
for epoch in range(10):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
print(loss.item())
""", line=11, note="a hand-written update that never clears .grad: each step applies the sum of all "
                     "gradients so far", fixed="""\
import torch
torch.manual_seed(0)
x, y = torch.randn(32, 3), torch.randn(32)
w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.05
for epoch in range(10):
    loss = ((x @ w + b - y) ** 2).mean()
    w.grad = None
    b.grad = None
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
print(loss.item())
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
for step in range(8):
    x, y = torch.randn(8, 3), torch.randn(8, 1)
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    for p in model.parameters():
        p.data -= 0.05 * p.grad
""", line=9, note="a hand-written update of a module's parameters: the module zeroes them", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
for step in range(8):
    x, y = torch.randn(8, 3), torch.randn(8, 1)
    loss = ((model(x) - y) ** 2).mean()
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data -= 0.05 * p.grad
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
G = torch.nn.Linear(4, 4)
D = torch.nn.Linear(4, 1)
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(4):
    real, z = torch.randn(8, 4), torch.randn(8, 4)
    fake = G(z)
    opt_d.zero_grad()
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(D(fake.detach()), torch.zeros(8, 1))
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(8, 1))
    g_loss.backward()
    opt_g.step()
""", line=16, note="the discriminator's gradients are zeroed each step, the generator's never", fixed="""\
import torch
torch.manual_seed(0)
G = torch.nn.Linear(4, 4)
D = torch.nn.Linear(4, 1)
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(4):
    real, z = torch.randn(8, 4), torch.randn(8, 4)
    fake = G(z)
    opt_d.zero_grad()
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(D(fake.detach()), torch.zeros(8, 1))
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(8, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
accumulate = 4
for step in range(8):
    loss = model(torch.randn(16, 8)).pow(2).mean() / accumulate
    loss.backward()
    if (step + 1) % accumulate == 0:
        opt.step()
""", line=7, note="gradients accumulated over a few backwards, never zeroed after the step", fixed="""\
import torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
accumulate = 4
for step in range(8):
    loss = model(torch.randn(16, 8)).pow(2).mean() / accumulate
    loss.backward()
    if (step + 1) % accumulate == 0:
        opt.step()
        opt.zero_grad()
"""),
)

GOOD = (
    Example(code="""\
import torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(5):
    opt.zero_grad()
    loss = model(torch.randn(16, 8)).pow(2).mean()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
accumulate = 4
for step in range(8):
    loss = model(torch.randn(16, 8)).pow(2).mean() / accumulate
    loss.backward()
    if (step + 1) % accumulate == 0:
        opt.step()
        opt.zero_grad()
""", note="deliberate gradient accumulation"),
    Example(code="""\
import torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(5):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    loss.backward()
    opt.step()
    for p in model.parameters():
        p.grad = None
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
x, y = torch.randn(32, 3), torch.randn(32)
w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.05
for epoch in range(10):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
print(loss.item())
""", note="a hand-written update that clears .grad after it"),
    Example(code="""\
import torch
torch.manual_seed(0)
w = torch.zeros(3, requires_grad=True)
for step in range(16):
    x, y = torch.randn(8, 3), torch.randn(8)
    loss = ((x @ w - y) ** 2).mean() / 4
    loss.backward()
    if (step + 1) % 4 == 0:
        with torch.no_grad():
            w -= 0.1 * w.grad
        w.grad.zero_()
""", note="a hand-written update every 4 backward calls, on purpose, cleared after it"),
    Example(code="""\
import torch
torch.manual_seed(0)
w = torch.zeros(3, requires_grad=True)
for step in range(8):
    x, y = torch.randn(8, 3), torch.randn(8)
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    w.data -= 0.1 * w.grad.data
    w.grad.data.zero_()
""", note="the old tutorials' `.data` update, cleared through `.grad.data`"),
    Example(code="""\
import torch
torch.manual_seed(0)
G = torch.nn.Linear(4, 4)
D = torch.nn.Linear(4, 1)
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(4):
    real, z = torch.randn(8, 4), torch.randn(8, 4)
    fake = G(z)
    opt_d.zero_grad()
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(D(fake.detach()), torch.zeros(8, 1))
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(8, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
"""),
)
