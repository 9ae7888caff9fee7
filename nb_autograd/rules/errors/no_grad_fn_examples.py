"""Runnable examples for no_grad_fn (kept apart: the rule module stays small)."""
from __future__ import annotations

from ..base import Example
from .no_grad_fn_runtime_examples import RUNTIME_BAD
from .no_grad_fn_setup_examples import SETUP_BAD
from .no_grad_fn_value_examples import VALUE_BAD

BAD = (
    Example(code="""\
import torch
model = torch.nn.Linear(4, 1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
with torch.no_grad():
    pred = model(x)
loss = torch.nn.functional.mse_loss(pred, y)
loss.backward()
""", line=4, fixed="""\
import torch
model = torch.nn.Linear(4, 1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
pred = model(x)
loss = torch.nn.functional.mse_loss(pred, y)
loss.backward()
"""),
    Example(code="""\
import torch
def features(model, x):
    h = model(x).detach()
    return h.relu()

net = torch.nn.Linear(3, 3)
loss = features(net, torch.randn(2, 3)).mean()
loss.backward()
""", line=3, fixed="""\
import torch
def features(model, x):
    h = model(x)
    return h.relu()

net = torch.nn.Linear(3, 3)
loss = features(net, torch.randn(2, 3)).mean()
loss.backward()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(3, 1)
x, y = torch.randn(6, 3), torch.randn(6, 1)
for step in range(2):
    value = ((model(x) - y) ** 2).mean().item()
    loss = torch.tensor(value)
    loss.backward()
""", line=5, fixed="""\
import torch
model = torch.nn.Linear(3, 1)
x, y = torch.randn(6, 3), torch.randn(6, 1)
for step in range(2):
    value = ((model(x) - y) ** 2).mean()
    loss = value
    loss.backward()
"""),
    Example(code="""\
import torch
backbone = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
for p in backbone.parameters():
    p.requires_grad = False
loss = backbone(torch.randn(5, 4)).pow(2).mean()
loss.backward()
""", line=4, fixed="""\
import torch
backbone = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
for p in backbone.parameters():
    p.requires_grad = True
loss = backbone(torch.randn(5, 4)).pow(2).mean()
loss.backward()
"""),
    Example(code="""\
import torch
w = torch.randn(3, 1, requires_grad=True)
losses = [0, 0]
for task in range(2):
    x = torch.randn(4, 3)
    losses[0] += (x @ w).pow(2).mean()
    with torch.no_grad():
        losses[1] += (x @ w).abs().mean()
losses[-1].backward()
""", line=7, note="the list's last element was last written under no_grad", fixed="""\
import torch
w = torch.randn(3, 1, requires_grad=True)
losses = [0, 0]
for task in range(2):
    x = torch.randn(4, 3)
    losses[0] += (x @ w).pow(2).mean()
    losses[1] += (x @ w).abs().mean()
losses[-1].backward()
"""),
    Example(code="""\
import torch
net = torch.nn.ModuleDict({"encoder": torch.nn.Linear(4, 4), "head": torch.nn.Linear(4, 1)})
freeze_encoder = True
for name, p in net.named_parameters():
    if name.startswith("encoder"):
        p.requires_grad = False
    else:
        p.requires_grad = False
loss = net["head"](net["encoder"](torch.randn(3, 4))).pow(2).mean()
loss.backward()
""", line=8, note="both branches freeze: the else branch is the typo", fixed="""\
import torch
net = torch.nn.ModuleDict({"encoder": torch.nn.Linear(4, 4), "head": torch.nn.Linear(4, 1)})
freeze_encoder = True
for name, p in net.named_parameters():
    if name.startswith("encoder"):
        p.requires_grad = False
    else:
        p.requires_grad = True
loss = net["head"](net["encoder"](torch.randn(3, 4))).pow(2).mean()
loss.backward()
"""),
    Example(code="""\
import torch
w = torch.randn(3, 1)
x, y = torch.randn(10, 3), torch.randn(10, 1)
for step in range(3):
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
""", line=2, fixed="""\
import torch
w = torch.randn(3, 1, requires_grad=True)
x, y = torch.randn(10, 3), torch.randn(10, 1)
for step in range(3):
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
"""),
    # a weight scaled after it is drawn: the flag goes on the result, which stays a leaf
    Example(code="""\
import torch
x, y = torch.randn(16, 2), torch.randn(16, 1)
scale = torch.randn(2, 1) / 2
for step in range(3):
    loss = ((x @ scale - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        scale -= 0.1 * scale.grad
        scale.grad = None
""", line=3, fixed="""\
import torch
x, y = torch.randn(16, 2), torch.randn(16, 1)
scale = (torch.randn(2, 1) / 2).requires_grad_()
for step in range(3):
    loss = ((x @ scale - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        scale -= 0.1 * scale.grad
        scale.grad = None
"""),
    # a round trip through numpy: computed with torch instead, input data stays a tensor too
    Example(code="""\
import numpy as np
import torch
net = torch.nn.Linear(2, 1)
x = torch.randn(8, 2)
target = x.sum(dim=1, keepdim=True).numpy()
out = net(x).detach().numpy()
err = np.mean(np.abs(out - target))
loss = torch.tensor(err)
loss.backward()
""", line=6, fixed="""\
import numpy as np
import torch
net = torch.nn.Linear(2, 1)
x = torch.randn(8, 2)
target = x.sum(dim=1, keepdim=True)
out = net(x)
err = torch.mean(torch.abs(out - target))
loss = err
loss.backward()
"""),
    # an evaluation helper computes under no_grad: its result is computed at the call instead
    Example(code="""\
import torch

def embed(layer, x, scale=2.0):
    with torch.no_grad():
        return layer(x) * scale

layer = torch.nn.Linear(3, 3)
loss = embed(layer, torch.randn(4, 3) + 1).pow(2).mean()
loss.backward()
""", line=4, fixed="""\
import torch

def embed(layer, x, scale=2.0):
    with torch.no_grad():
        return layer(x) * scale

layer = torch.nn.Linear(3, 3)
loss = (layer(torch.randn(4, 3) + 1) * 2.0).pow(2).mean()
loss.backward()
"""),
    # .item() per element, rebuilt with torch.tensor: the tensors are stacked instead
    Example(code="""\
import torch
net = torch.nn.Linear(2, 1)
xs = [torch.randn(4, 2) for _ in range(3)]
parts = torch.tensor([net(x).mean().item() for x in xs])
loss = parts.sum()
loss.backward()
""", line=4, fixed="""\
import torch
net = torch.nn.Linear(2, 1)
xs = [torch.randn(4, 2) for _ in range(3)]
parts = torch.stack([net(x).mean() for x in xs])
loss = parts.sum()
loss.backward()
"""),
    Example(code="""\
import torch


@torch.no_grad()
def loss_of(model, batch):
    x, y = batch
    return (model(x) - y).pow(2).mean()


model = torch.nn.Linear(3, 1)
for step in range(2):
    loss = loss_of(model, (torch.randn(4, 3), torch.randn(4, 1)))
    loss.backward()
""", line=4, fixed="""\
import torch


def loss_of(model, batch):
    x, y = batch
    return (model(x) - y).pow(2).mean()


model = torch.nn.Linear(3, 1)
for step in range(2):
    loss = loss_of(model, (torch.randn(4, 3), torch.randn(4, 1)))
    loss.backward()
"""),
) + VALUE_BAD + RUNTIME_BAD + SETUP_BAD

GOOD = (
    Example(code="""\
import torch
model = torch.nn.Linear(4, 1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
loss = torch.nn.functional.mse_loss(model(x), y)
loss.backward()
with torch.no_grad():
    val = torch.nn.functional.mse_loss(model(x), y)
print(val.item())
"""),
    Example(code="""\
import torch
backbone = torch.nn.Linear(4, 8)
head = torch.nn.Linear(8, 2)
backbone.requires_grad_(False)
target = torch.tensor([[0.5, -0.5]])
loss = (head(backbone(torch.randn(1, 4))) - target).pow(2).mean()
loss.backward()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(4, 3)
x, y = torch.randn(8, 4), torch.randint(0, 3, (8,))
logits = model(x)
loss = torch.nn.functional.cross_entropy(logits, y)
accuracy = (logits.argmax(dim=1) == y).float().mean()
loss.backward()
"""),
)
