"""Runnable examples for double_backward (kept apart: the rule module stays small)."""
from __future__ import annotations

from ..base import Example

BAD = (
    Example(code="""\
import torch
model = torch.nn.Linear(5, 2)
inputs = torch.randn(5)
target = torch.tensor([0.3, 0.7])
loss = torch.nn.functional.cross_entropy(model(inputs), target)
loss.backward()
print(model.weight.grad.sum())
loss.backward()
""", line=8, fixed="""\
import torch
model = torch.nn.Linear(5, 2)
inputs = torch.randn(5)
target = torch.tensor([0.3, 0.7])
loss = torch.nn.functional.cross_entropy(model(inputs), target)
loss.backward()
print(model.weight.grad.sum())
"""),
    Example(code="""\
import torch
w = torch.randn(3, requires_grad=True)
loss = (w.sin() ** 2).sum()
(g,) = torch.autograd.grad(loss, w)
loss.backward()
""", line=4, fixed="""\
import torch
w = torch.randn(3, requires_grad=True)
loss = (w.sin() ** 2).sum()
(g,) = torch.autograd.grad(loss, w, retain_graph=True)
loss.backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
critic = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Softplus(), torch.nn.Linear(8, 1))
x = torch.randn(4, 2, requires_grad=True)
score = critic(x)
(grad_x,) = torch.autograd.grad(score.sum(), x)
penalty = ((grad_x.norm(dim=1) - 1) ** 2).mean()
loss = -score.mean() + penalty
loss.backward()
""", line=6, note="grad() without create_graph freed the critic graph that backward() needs", fixed="""\
import torch
torch.manual_seed(0)
critic = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Softplus(), torch.nn.Linear(8, 1))
x = torch.randn(4, 2, requires_grad=True)
score = critic(x)
(grad_x,) = torch.autograd.grad(score.sum(), x, create_graph=True)
penalty = ((grad_x.norm(dim=1) - 1) ** 2).mean()
loss = -score.mean() + penalty
loss.backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def apply(loss):
    loss.backward()
    opt.step()


for step in range(2):
    opt.zero_grad()
    loss = net(torch.randn(4, 3)).pow(2).mean()
    loss.backward()
    apply(loss)
""", line=8, fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def apply(loss):
    loss.backward()
    opt.step()


for step in range(2):
    opt.zero_grad()
    loss = net(torch.randn(4, 3)).pow(2).mean()
    apply(loss)
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
norms = []
for step in range(2):
    opt.zero_grad()
    loss = model(torch.randn(4, 3)).pow(2).mean()
    loss.backward()
    params = list(model.parameters())
    grads = torch.autograd.grad(loss, params)
    norms.append(sum(g.pow(2).sum() for g in grads).item())
    opt.step()
""", line=11, note="a gradient-norm probe after backward() already filled .grad", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
norms = []
for step in range(2):
    opt.zero_grad()
    loss = model(torch.randn(4, 3)).pow(2).mean()
    loss.backward()
    params = list(model.parameters())
    grads = [p.grad for p in params]
    norms.append(sum(g.pow(2).sum() for g in grads).item())
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
w = torch.randn(3, 2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
x, y = torch.randn(4, 3), torch.randn(4, 2)
for task in range(2):
    fast = w - 0.1 * torch.autograd.grad((x @ w - y).pow(2).mean(), w, create_graph=True)[0]
    loss = (x @ fast - y).abs().mean()
    loss.backward()
    grads = torch.autograd.grad(loss, [fast])
    opt.step()
""", line=9, note="backward() then grad() of the same query loss on fast weights, which keep no .grad "
                       "(few-shot#6): the backward goes, the grad stays", fixed="""\
import torch
torch.manual_seed(0)
w = torch.randn(3, 2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
x, y = torch.randn(4, 3), torch.randn(4, 2)
for task in range(2):
    fast = w - 0.1 * torch.autograd.grad((x @ w - y).pow(2).mean(), w, create_graph=True)[0]
    loss = (x @ fast - y).abs().mean()
    grads = torch.autograd.grad(loss, [fast])
    opt.step()
"""),
    Example(code="""\
import torch
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
outputs = {"loss": net(torch.randn(4, 3)).pow(2).mean()}
outputs["loss"].backward()
loss = outputs["loss"] / 4
loss.backward()
opt.step()
""", line=7, note="the loss backpropagated again is computed from one already backpropagated (two hooks each run backward)", fixed="""\
import torch
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
outputs = {"loss": net(torch.randn(4, 3)).pow(2).mean()}
outputs["loss"].backward()
loss = outputs["loss"] / 4
opt.step()
"""),
    Example(code="""\
import torch
x = torch.randn(4, requires_grad=True)
y = torch.tanh(x) * 2
rows = []
for i in range(4):
    (g,) = torch.autograd.grad(y[i], x)
    rows.append(g)
jacobian = torch.stack(rows)
""", line=6, note="a Jacobian row by row: every pass through the forward's graph is meant", fixed="""\
import torch
x = torch.randn(4, requires_grad=True)
y = torch.tanh(x) * 2
rows = []
for i in range(4):
    (g,) = torch.autograd.grad(y[i], x, retain_graph=True)
    rows.append(g)
jacobian = torch.stack(rows)
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
images = torch.randn(5, 3, requires_grad=True)
scores = net(images)
saliency = []
for c in range(scores.shape[1]):
    scores[:, c].sum().backward()
    saliency.append(images.grad.abs().clone())
    images.grad = None
""", line=8, note="one class's saliency after another, from one forward", fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
images = torch.randn(5, 3, requires_grad=True)
scores = net(images)
saliency = []
for c in range(scores.shape[1]):
    scores[:, c].sum().backward(retain_graph=True)
    saliency.append(images.grad.abs().clone())
    images.grad = None
"""),
)

GOOD = (
    Example(code="""\
import torch
w = torch.ones(4, requires_grad=True)
for step in range(3):
    loss = (w * w).exp().sum()
    loss.backward()
"""),
    Example(code="""\
import torch
w = torch.randn(3, requires_grad=True)
loss = (w.sin() ** 2).sum()
loss.backward(retain_graph=True)
loss.backward()
"""),
    Example(code="""\
import torch
x = torch.randn(4, requires_grad=True)
y = torch.tanh(x) * 2
rows = [torch.autograd.grad(y[i], x, retain_graph=True)[0] for i in range(4)]
"""),
)
