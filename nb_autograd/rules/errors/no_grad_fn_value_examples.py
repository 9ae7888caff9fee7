"""no_grad_fn examples where a value loses its graph on its way to the loss: a helper's Python
number, class indices, a branch that makes a constant, a loss computed inside a manual update's
no_grad block (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

VALUE_BAD = (
    Example(code="""\
import torch


def dice_loss(logits, target):
    probs = torch.sigmoid(logits)
    dice = 2 * (probs * target).sum() / (probs.sum() + target.sum())
    return torch.tensor(1.0 - dice.item())


net = torch.nn.Linear(4, 1)
for step in range(2):
    loss = dice_loss(net(torch.randn(6, 4)), torch.ones(6, 1))
    loss.backward()
""", line=7, note="the helper's return turns the graph-attached dice into a Python number", fixed="""\
import torch


def dice_loss(logits, target):
    probs = torch.sigmoid(logits)
    dice = 2 * (probs * target).sum() / (probs.sum() + target.sum())
    return 1.0 - dice


net = torch.nn.Linear(4, 1)
for step in range(2):
    loss = dice_loss(net(torch.randn(6, 4)), torch.ones(6, 1))
    loss.backward()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(4, 3)
criterion = torch.nn.MSELoss()
x, y = torch.randn(8, 4), torch.randint(0, 3, (8,)).float()
for epoch in range(2):
    logits = model(x)
    preds = logits.softmax(dim=1).argmax(dim=1).float()
    loss = criterion(preds, y)
    accuracy = (preds == y).float().mean()
    loss.backward()
""", line=7, note="argmax returns class indices: no gradient reaches the model", fixed="""\
import torch
model = torch.nn.Linear(4, 3)
criterion = torch.nn.MSELoss()
x, y = torch.randn(8, 4), torch.randint(0, 3, (8,)).float()
for epoch in range(2):
    logits = model(x)
    preds = logits.softmax(dim=1).argmax(dim=1).float()
    loss = torch.nn.functional.cross_entropy(logits, y.long())
    accuracy = (preds == y).float().mean()
    loss.backward()
"""),
    Example(code="""\
import torch
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)

def detection_loss(pred, targets):
    if len(targets) == 0:
        loss = torch.tensor(0.0)
    else:
        loss = ((pred[: len(targets)] - targets) ** 2).mean()
    return loss

for targets in (torch.randn(2, 1), torch.zeros(0, 1)):
    loss = detection_loss(net(torch.randn(4, 3)), targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=7, note="a batch with no target takes the branch that makes the loss a constant", fixed="""\
import torch
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)

def detection_loss(pred, targets):
    if len(targets) == 0:
        loss = torch.tensor(0.0, requires_grad=True)
    else:
        loss = ((pred[: len(targets)] - targets) ** 2).mean()
    return loss

for targets in (torch.randn(2, 1), torch.zeros(0, 1)):
    loss = detection_loss(net(torch.randn(4, 3)), targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
w = torch.randn(3, requires_grad=True)
x = torch.randn(5, 3)
loss = (x @ w).pow(2).mean()
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad
    loss = (x @ w).pow(2).mean()
w.grad.zero_()
loss.backward()
""", line=8, note="the next loss computed inside the manual update's no_grad block (fastai course22#58)", fixed="""\
import torch
w = torch.randn(3, requires_grad=True)
x = torch.randn(5, 3)
loss = (x @ w).pow(2).mean()
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad
loss = (x @ w).pow(2).mean()
w.grad.zero_()
loss.backward()
"""),
    Example(code="""\
import torch
from torch import autograd
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.01)
x, y = torch.randn(16, 4), torch.randn(16, 1)
for step in range(3):
    loss = torch.nn.functional.mse_loss(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    x_in = x.clone().requires_grad_(True)
    g, = autograd.grad(net(x_in).sum(), x_in)
    smoothness = g.pow(2).mean()
    opt.zero_grad()
    smoothness.backward()
    opt.step()
""", line=13, note="a smoothness penalty on input gradients taken without create_graph: they have no history "
                  "(facebookresearch/DomainBed#50, IGA's gradient alignment)", fixed="""\
import torch
from torch import autograd
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.01)
x, y = torch.randn(16, 4), torch.randn(16, 1)
for step in range(3):
    loss = torch.nn.functional.mse_loss(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    x_in = x.clone().requires_grad_(True)
    g, = autograd.grad(net(x_in).sum(), x_in, create_graph=True)
    smoothness = g.pow(2).mean()
    opt.zero_grad()
    smoothness.backward()
    opt.step()
"""),
    Example(code="""\
import torch
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def my_loss(pred, target):
    err = pred.detach().numpy() - target.numpy()
    return torch.tensor((err ** 2).mean())


x, t = torch.randn(8, 3), torch.randn(8, 1)
for i in range(2):
    loss = my_loss(net(x), t)
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=8, note="a helper computes the loss in NumPy and wraps it back: both the conversion and the wrap cut it",
            fixed="""\
import torch
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def my_loss(pred, target):
    err = pred - target
    return (err ** 2).mean()


x, t = torch.randn(8, 3), torch.randn(8, 1)
for i in range(2):
    loss = my_loss(net(x), t)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
)
