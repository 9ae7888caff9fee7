"""Runnable examples for inplace_modified_saved_tensor (kept apart: the rule module stays small)."""
from __future__ import annotations

from ..base import Example
from .inplace_modified_saved_tensor_several_examples import SEVERAL_BAD
from .inplace_modified_saved_tensor_written_examples import WRITTEN_BAD

BAD = (
    Example(code="""\
import torch
w = torch.randn(5, requires_grad=True)
y = w.tanh()
y.mul_(2)
y.sum().backward()
""", line=4, fixed="""\
import torch
w = torch.randn(5, requires_grad=True)
y = w.tanh()
y = y.mul(2)
y.sum().backward()
"""),
    Example(code="""\
import torch
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        h = torch.sigmoid(self.fc(x))
        h += x
        return h

block = Block()
out = block(torch.randn(2, 4))
out.sum().backward()
""", line=9, fixed="""\
import torch
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        h = torch.sigmoid(self.fc(x))
        h = h + x
        return h

block = Block()
out = block(torch.randn(2, 4))
out.sum().backward()
"""),
    Example(code="""\
import torch
net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Sigmoid(), torch.nn.ReLU(inplace=True), torch.nn.Linear(4, 1))
for batch in range(2):
    loss = net(torch.randn(3, 4)).pow(2).mean()
    loss.backward()
""", line=2, fixed="""\
import torch
net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Sigmoid(), torch.nn.ReLU(), torch.nn.Linear(4, 1))
for batch in range(2):
    loss = net(torch.randn(3, 4)).pow(2).mean()
    loss.backward()
"""),
    Example(code="""\
import torch
def scores(w, x):
    s = torch.exp(x @ w)
    s[:, 0] = 0.0
    return s.sum()

w = torch.randn(3, 2, requires_grad=True)
scores(w, torch.randn(5, 3)).backward()
""", line=4, fixed="""\
import torch
def scores(w, x):
    s = torch.exp(x @ w)
    s = s.clone()
    s[:, 0] = 0.0
    return s.sum()

w = torch.randn(3, 2, requires_grad=True)
scores(w, torch.randn(5, 3)).backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.1)
out = model(torch.randn(16, 3))
loss_fit = torch.nn.functional.mse_loss(out, torch.randn(16, 1))
loss_small = out.abs().mean()
opt.zero_grad()
loss_fit.backward(retain_graph=True)
opt.step()
loss_small.backward()
""", line=10, fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.1)
out = model(torch.randn(16, 3))
loss_fit = torch.nn.functional.mse_loss(out, torch.randn(16, 1))
loss_small = out.abs().mean()
opt.zero_grad()
loss_fit.backward(retain_graph=True)
loss_small.backward()
opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
G = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
D = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
opt_g = torch.optim.SGD(G.parameters(), lr=0.01)
opt_d = torch.optim.SGD(D.parameters(), lr=0.01)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(2):
    fake = G(torch.randn(8, 2))
    d_loss = bce(D(torch.randn(8, 2) + 2), torch.ones(8, 1)) + bce(D(fake.detach()), torch.zeros(8, 1))
    g_loss = bce(D(fake), torch.ones(8, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
""", line=14, note="GAN: the generator loss was computed before the discriminator step", fixed="""\
import torch
torch.manual_seed(0)
G = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
D = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
opt_g = torch.optim.SGD(G.parameters(), lr=0.01)
opt_d = torch.optim.SGD(D.parameters(), lr=0.01)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(2):
    fake = G(torch.randn(8, 2))
    d_loss = bce(D(torch.randn(8, 2) + 2), torch.ones(8, 1)) + bce(D(fake.detach()), torch.zeros(8, 1))
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
net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
xa, xb = torch.randn(4, 3), torch.randn(4, 3)
for step in range(2):
    loss_a = net(xa).pow(2).mean()
    loss_b = net(xb).abs().mean()
    opt.zero_grad()
    loss_a.backward()
    opt.step()
    loss_b.backward()
    opt.step()
""", line=11, note="two losses of one forward, the same optimizer stepped after each", fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
xa, xb = torch.randn(4, 3), torch.randn(4, 3)
for step in range(2):
    loss_a = net(xa).pow(2).mean()
    loss_b = net(xb).abs().mean()
    opt.zero_grad()
    (loss_a + loss_b).backward()
    opt.step()
"""),
    Example(code="""\
import torch
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Linear(4, 4)
        self.relu = torch.nn.ReLU(inplace=True)

    def forward(self, x):
        out = self.relu(self.conv(x))
        out += x
        return out

Block()(torch.randn(2, 4)).sum().backward()
""", line=10, note="ReLU(inplace=True) made the saved tensor; the `+=` after it wrote into it", fixed="""\
import torch
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Linear(4, 4)
        self.relu = torch.nn.ReLU(inplace=True)

    def forward(self, x):
        out = self.relu(self.conv(x))
        out = out + x
        return out

Block()(torch.randn(2, 4)).sum().backward()
"""),
    Example(code="""\
import torch
class Norm(torch.nn.Module):
    def forward(self, x):
        norm = x.pow(2).sum(1, keepdim=True).sqrt()
        x /= norm
        return 3 * x

net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(inplace=True), Norm())
net(torch.randn(2, 4)).sum().backward()
""", line=5, note="the division wrote into its argument, the caller's tensor that pow had saved", fixed="""\
import torch
class Norm(torch.nn.Module):
    def forward(self, x):
        norm = x.pow(2).sum(1, keepdim=True).sqrt()
        x = x / norm
        return 3 * x

net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(inplace=True), Norm())
net(torch.randn(2, 4)).sum().backward()
"""),
    Example(code="""\
import torch
def mix(x, w):
    y = torch.sigmoid(x @ w)
    y[:, 0] = 0.0
    y[:, 1] = 1.0
    return y

mix(torch.randn(3, 2), torch.randn(2, 2, requires_grad=True)).sum().backward()
""", line=4, note="two writes, as many as the version counter moved on: named at the first", fixed="""\
import torch
def mix(x, w):
    y = torch.sigmoid(x @ w)
    y = y.clone()
    y[:, 0] = 0.0
    y[:, 1] = 1.0
    return y

mix(torch.randn(3, 2), torch.randn(2, 2, requires_grad=True)).sum().backward()
"""),
) + WRITTEN_BAD + SEVERAL_BAD

GOOD = (
    Example(code="""\
import torch
w = torch.randn(5, requires_grad=True)
y = w.tanh()
y = y * 2
y.sum().backward()
"""),
    Example(code="""\
import torch
w = torch.randn(3, requires_grad=True)
for step in range(3):
    loss = (w.exp() - 1).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
"""),
    Example(code="""\
import torch
net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(inplace=True), torch.nn.Linear(4, 1))
loss = net(torch.randn(3, 4)).pow(2).mean()
loss.backward()
""", note="inplace ReLU after a Linear is safe: addmm does not save its output"),
)
