"""Runnable examples for numpy_on_grad_tensor (kept apart: the rule module stays small)."""
from __future__ import annotations

from ..base import Example
from .numpy_on_grad_tensor_logged_examples import LOGGED_BAD

BAD = (
    Example(code="""\
import torch
model = torch.nn.Linear(3, 1)
pred = model(torch.randn(5, 3))
values = pred.numpy()
""", line=4, fixed="""\
import torch
model = torch.nn.Linear(3, 1)
pred = model(torch.randn(5, 3))
values = pred.detach().cpu().numpy()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(3, 1)
history = []
for epoch in range(3):
    loss = model(torch.randn(8, 3)).pow(2).mean()
    loss.backward()
    history.append(loss.numpy())
""", line=7, fixed="""\
import torch
model = torch.nn.Linear(3, 1)
history = []
for epoch in range(3):
    loss = model(torch.randn(8, 3)).pow(2).mean()
    loss.backward()
    history.append(loss.detach().cpu().numpy())
"""),
    Example(code="""\
import numpy as np
import torch
class Probe:
    def __init__(self, layer):
        self.layer = layer

    def snapshot(self):
        return np.asarray(self.layer.weight)

probe = Probe(torch.nn.Linear(2, 2))
w = probe.snapshot()
""", line=8, fixed="""\
import numpy as np
import torch
class Probe:
    def __init__(self, layer):
        self.layer = layer

    def snapshot(self):
        return np.asarray(self.layer.weight.detach().cpu().numpy())

probe = Probe(torch.nn.Linear(2, 2))
w = probe.snapshot()
"""),
    Example(code="""\
import numpy as np
import torch
net = torch.nn.Linear(1, 1)
xs = torch.linspace(0, 1, 5).unsqueeze(1)
curve = np.stack([xs.numpy(), net(xs).numpy()])
""", line=5, fixed="""\
import numpy as np
import torch
net = torch.nn.Linear(1, 1)
xs = torch.linspace(0, 1, 5).unsqueeze(1)
curve = np.stack([xs.detach().cpu().numpy(), net(xs).detach().cpu().numpy()])
"""),
    Example(code="""\
import numpy as np
import torch
def show(points, values):
    return np.asarray(points), np.asarray(values)

w = torch.nn.Parameter(torch.tensor([2.0, -1.0]))
x = torch.randn(5, 2)
show(x[:, 0], x @ w)
""", line=8, note="a plotting helper converts what the caller hands it (fastai course-v3#521)", fixed="""\
import numpy as np
import torch
def show(points, values):
    return np.asarray(points), np.asarray(values)

w = torch.nn.Parameter(torch.tensor([2.0, -1.0]))
x = torch.randn(5, 2)
show(x[:, 0], (x @ w).detach().cpu().numpy())
"""),
    Example(code="""\
import numpy as np
import torch
model = torch.nn.Linear(4, 2)
def draw(box):
    return np.asarray(box, dtype=float)

boxes = model(torch.randn(3, 4))
for x0, x1 in boxes:
    draw((x0, x1))
""", line=7, note="boxes kept from a forward with grad, unpacked for drawing (Transformers-Tutorials#178)", fixed="""\
import numpy as np
import torch
model = torch.nn.Linear(4, 2)
def draw(box):
    return np.asarray(box, dtype=float)

boxes = model(torch.randn(3, 4)).detach()
for x0, x1 in boxes:
    draw((x0, x1))
"""),
    Example(code="""\
import numpy as np
import torch

class Attention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.score = torch.nn.Linear(4, 3)
        self.alphas = None

    def forward(self, x):
        alphas = self.score(x).softmax(-1)
        self.alphas = alphas
        return alphas @ torch.ones(3, 2)

def show(matrix):
    return np.asarray(matrix)

attn = Attention()
attn(torch.randn(2, 4))
show(attn.alphas[0])
""", line=12, note="a module keeps its attention scores for plotting (PyTorchStepByStep#23)", fixed="""\
import numpy as np
import torch

class Attention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.score = torch.nn.Linear(4, 3)
        self.alphas = None

    def forward(self, x):
        alphas = self.score(x).softmax(-1)
        self.alphas = alphas.detach()
        return alphas @ torch.ones(3, 2)

def show(matrix):
    return np.asarray(matrix)

attn = Attention()
attn(torch.randn(2, 4))
show(attn.alphas[0])
"""),
    Example(code="""\
import numpy as np
import torch

class Propagate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        layers = [x]
        for _ in range(2):
            x = self.lin(x)
            layers.append(x)
        return np.sum(layers, 0) / 3

out = Propagate()(torch.randn(5, 4))
out.pow(2).mean().backward()
""", line=14, note="NumPy math in forward: the model's own result (DHCN#8)", fixed="""\
import numpy as np
import torch

class Propagate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        layers = [x]
        for _ in range(2):
            x = self.lin(x)
            layers.append(x)
        return torch.sum(torch.stack(layers), 0) / 3

out = Propagate()(torch.randn(5, 4))
out.pow(2).mean().backward()
"""),
    Example(code="""\
from numpy import *
import torch

net = torch.nn.Linear(4, 4)
x = torch.randn(3, 4)
layer_losses = [net(x).pow(2).mean(), net(x).abs().mean()]
loss = sum(layer_losses)
loss.backward()
""", line=1, note="a NumPy star import (as %pylab does) makes `sum` NumPy's (leongatys/PytorchNeuralStyleTransfer#16)", fixed="""\
from numpy import *
import torch

net = torch.nn.Linear(4, 4)
x = torch.randn(3, 4)
layer_losses = [net(x).pow(2).mean(), net(x).abs().mean()]
loss = torch.sum(torch.stack(layer_losses))
loss.backward()
"""),
) + LOGGED_BAD

GOOD = (
    Example(code="""\
import torch
model = torch.nn.Linear(3, 1)
values = model(torch.randn(5, 3)).detach().numpy()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(3, 1)
with torch.no_grad():
    values = model(torch.randn(5, 3)).numpy()
"""),
)
