"""computed_before_loop examples where the statement before the loop computes nothing itself
(it names a tensor a hook or a call made: `no_grad` around it would cut nothing, a detach
does), and a forward before a hand-written update loop (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

NAMED_BAD = (
    Example(code="""\
import torch
model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
acts = {}
model[0].register_forward_hook(lambda m, i, o: acts.__setitem__("fc1", o))
x = torch.randn(8, 4)
model(x)
target = acts["fc1"]
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    out = model(x)
    loss = (acts["fc1"] - target).pow(2).mean() + out.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=7, note="a hook's activation named as a target before the loop", fixed="""\
import torch
model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
acts = {}
model[0].register_forward_hook(lambda m, i, o: acts.__setitem__("fc1", o))
x = torch.randn(8, 4)
model(x)
target = acts["fc1"].detach()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    out = model(x)
    loss = (acts["fc1"] - target).pow(2).mean() + out.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
w = torch.randn(3, 1, requires_grad=True)
X = torch.randn(20, 3)
Y = X @ torch.tensor([[1.0], [2.0], [-1.0]])
pred = X @ w
for i in range(3):
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        w.grad.zero_()
""", line=5, note="the prediction made once, before a loop that updates its weight by hand", fixed="""\
import torch
w = torch.randn(3, 1, requires_grad=True)
X = torch.randn(20, 3)
Y = X @ torch.tensor([[1.0], [2.0], [-1.0]])
for i in range(3):
    pred = X @ w
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        w.grad.zero_()
"""),
)
