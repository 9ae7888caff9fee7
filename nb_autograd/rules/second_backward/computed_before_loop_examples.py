"""Runnable examples for computed_before_loop (kept apart: the rule module stays small)."""
from __future__ import annotations

from ..base import Example
from .computed_before_loop_derived_examples import DERIVED_BAD
from .computed_before_loop_critic_examples import CRITIC_BAD
from .computed_before_loop_named_examples import NAMED_BAD
from .computed_before_loop_sibling_examples import SIBLING_BAD

BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
feature_extractor = torch.nn.Linear(6, 4)
model = torch.nn.Linear(4, 2)
images = torch.randn(4, 6)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    opt.zero_grad()
    prev_ft = feature_extractor(images[0])
    for i in range(1, len(images)):
        s = model(feature_extractor(images[i]) - prev_ft)
        loss = s.pow(2).mean()
        loss.backward()
    opt.step()
""", line=9, fixed="""\
import torch
torch.manual_seed(0)
feature_extractor = torch.nn.Linear(6, 4)
model = torch.nn.Linear(4, 2)
images = torch.randn(4, 6)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    opt.zero_grad()
    with torch.no_grad():
        prev_ft = feature_extractor(images[0])
    for i in range(1, len(images)):
        s = model(feature_extractor(images[i]) - prev_ft)
        loss = s.pow(2).mean()
        loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
emb = torch.nn.Embedding(10, 4)
table = emb.weight.softmax(dim=1)
head = torch.nn.Linear(4, 1)
for step in range(3):
    idx = torch.randint(0, 10, (5,))
    loss = head(table[idx]).pow(2).mean()
    loss.backward()
""", line=4, fixed="""\
import torch
torch.manual_seed(0)
emb = torch.nn.Embedding(10, 4)
head = torch.nn.Linear(4, 1)
for step in range(3):
    table = emb.weight.softmax(dim=1)
    idx = torch.randint(0, 10, (5,))
    loss = head(table[idx]).pow(2).mean()
    loss.backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
enc = torch.nn.Linear(3, 4)
head = torch.nn.Linear(4, 1)
opt = torch.optim.SGD([*enc.parameters(), *head.parameters()], lr=0.1)
data = torch.randn(6, 3)

codes = torch.tanh(enc(data))
for epoch in range(2):
    for b in range(0, 6, 3):
        loss = head(codes[b:b + 3]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
""", line=8, fixed="""\
import torch
torch.manual_seed(0)
enc = torch.nn.Linear(3, 4)
head = torch.nn.Linear(4, 1)
opt = torch.optim.SGD([*enc.parameters(), *head.parameters()], lr=0.1)
data = torch.randn(6, 3)

for epoch in range(2):
    for b in range(0, 6, 3):
        codes = torch.tanh(enc(data))
        loss = head(codes[b:b + 3]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""),
    Example(code="""\
import torch
import torch.nn as nn
torch.manual_seed(0)
class Kernel(nn.Module):
    def __init__(self, length_scale=1.0):
        super().__init__()
        self.length_scale = torch.exp(nn.Parameter(torch.log(torch.tensor(length_scale))))

    def forward(self, x):
        return torch.exp(-(x / self.length_scale) ** 2)

kernel = Kernel()
head = nn.Linear(4, 1)
opt = torch.optim.Adam(head.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = head(kernel(torch.randn(8, 4))).pow(2).mean()
    loss.backward()
    opt.step()
""", line=7, note="a parameter made and transformed in __init__ (MiniGP#13): the raw one is kept, the "
                  "transform done per call", fixed="""\
import torch
import torch.nn as nn
torch.manual_seed(0)
class Kernel(nn.Module):
    def __init__(self, length_scale=1.0):
        super().__init__()
        self.log_length_scale = nn.Parameter(torch.log(torch.tensor(length_scale)))

    def forward(self, x):
        return torch.exp(-(x / torch.exp(self.log_length_scale)) ** 2)

kernel = Kernel()
head = nn.Linear(4, 1)
opt = torch.optim.Adam(head.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = head(kernel(torch.randn(8, 4))).pow(2).mean()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.LBFGS(net.parameters(), max_iter=4)
inputs, targets = torch.randn(16, 3), torch.randn(16, 1)
out = net(inputs)

def closure():
    opt.zero_grad()
    err = torch.nn.functional.l1_loss(out, targets)
    err.backward()
    return err

for rnd in range(2):
    opt.step(closure)
""", line=6, note="a forward done once, read by the closure LBFGS calls several times a step: it "
                  "goes into the closure", fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.LBFGS(net.parameters(), max_iter=4)
inputs, targets = torch.randn(16, 3), torch.randn(16, 1)

def closure():
    out = net(inputs)
    opt.zero_grad()
    err = torch.nn.functional.l1_loss(out, targets)
    err.backward()
    return err

for rnd in range(2):
    opt.step(closure)
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
xs = torch.randint(0, 5, (20,))
ys = torch.randint(0, 5, (20,))
W = torch.randn(5, 5, requires_grad=True)
onehot = torch.nn.functional.one_hot(xs, 5).float()
scores = onehot @ W
probs = scores.softmax(1)
nll = -probs[torch.arange(20), ys].log().mean()
for it in range(3):
    W.grad = None
    nll.backward()
    W.data -= 0.5 * W.grad
""", line=7, note="a whole forward written once above the gradient-descent loop (makemore, nn-zero-to-hero#31): "
                  "named where it starts, every statement that reads W moved in, the one-hot input left outside", fixed="""\
import torch
torch.manual_seed(0)
xs = torch.randint(0, 5, (20,))
ys = torch.randint(0, 5, (20,))
W = torch.randn(5, 5, requires_grad=True)
onehot = torch.nn.functional.one_hot(xs, 5).float()
for it in range(3):
    scores = onehot @ W
    probs = scores.softmax(1)
    nll = -probs[torch.arange(20), ys].log().mean()
    W.grad = None
    nll.backward()
    W.data -= 0.5 * W.grad
"""),
    Example(code="""\
import torch
w = torch.randn(3, requires_grad=True)
loss = (w ** 3).sum()
grads = torch.autograd.grad(loss, w, create_graph=True)
flat_grad = torch.cat([g.reshape(-1) for g in grads])

def product(v):
    g_v = torch.dot(flat_grad, v)
    return torch.autograd.grad(g_v, w)[0]

for _ in range(3):
    hv = product(torch.randn(3))
""", line=5, note="Hessian-vector products of one gradient: the inner grad keeps its graph (pytorch-maml-rl#13)", fixed="""\
import torch
w = torch.randn(3, requires_grad=True)
loss = (w ** 3).sum()
grads = torch.autograd.grad(loss, w, create_graph=True)
flat_grad = torch.cat([g.reshape(-1) for g in grads])

def product(v):
    g_v = torch.dot(flat_grad, v)
    return torch.autograd.grad(g_v, w, retain_graph=True)[0]

for _ in range(3):
    hv = product(torch.randn(3))
"""),
    Example(code="""\
import torch
from torch.nn.utils import parametrize
torch.manual_seed(0)


class Symmetric(torch.nn.Module):
    def forward(self, w):
        return (w + w.T) / 2


head = torch.nn.Linear(4, 4)
parametrize.register_parametrization(head, "weight", Symmetric())
opt = torch.optim.SGD(head.parameters(), lr=0.1)
with parametrize.cached():
    for step in range(3):
        a, b = torch.randn(8, 4), torch.randn(8, 4)
        loss = (head(a) - head(b)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
""", line=14, note="a cached parametrization entered once around the loop (pytorch#71062)", fixed="""\
import torch
from torch.nn.utils import parametrize
torch.manual_seed(0)


class Symmetric(torch.nn.Module):
    def forward(self, w):
        return (w + w.T) / 2


head = torch.nn.Linear(4, 4)
parametrize.register_parametrization(head, "weight", Symmetric())
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for step in range(3):
    with parametrize.cached():
        a, b = torch.randn(8, 4), torch.randn(8, 4)
        loss = (head(a) - head(b)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""),
) + DERIVED_BAD + SIBLING_BAD + CRITIC_BAD + NAMED_BAD

GOOD = (
    Example(code="""\
import torch
feature_extractor = torch.nn.Linear(6, 4)
model = torch.nn.Linear(4, 2)
images = torch.randn(4, 6)
with torch.no_grad():
    prev_ft = feature_extractor(images[0])
for i in range(1, len(images)):
    loss = model(feature_extractor(images[i]) - prev_ft).pow(2).mean()
    loss.backward()
"""),
    Example(code="""\
import torch
scale = torch.tensor(2.0)
model = torch.nn.Linear(3, 1)
for i in range(3):
    loss = (model(torch.randn(4, 3)) * scale).pow(2).mean()
    loss.backward()
"""),
)
