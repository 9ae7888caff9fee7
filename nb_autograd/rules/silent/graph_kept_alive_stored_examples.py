"""graph_kept_alive examples whose graph an object keeps: a module buffer filled in place, a
meter's running sums, an entry kept in a history list, two logs filled on one line (the loss's
and the output's: each keeps the same graph, so both are cut); the fix cuts the stored value
loose where it is written (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

STORED_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)

class Accum(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.ones(1))
        self.buf = None

    def forward(self, x):
        if self.buf is None:
            self.buf = torch.zeros(2)
        self.buf.zero_()
        self.buf.add_(x.sum(0) * self.scale)
        total = self.buf.clone()
        return total

acc = Accum()
x = torch.randn(4, 2)
for step in range(40):
    out = acc(x)
    x = x + 0.01 * out.detach()
print(out.tolist())
""", line=14, note="a module buffer filled in place each call chains every call's graph (nvalchemi-toolkit#82): cut it loose once read", fixed="""\
import torch
torch.manual_seed(0)

class Accum(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.ones(1))
        self.buf = None

    def forward(self, x):
        if self.buf is None:
            self.buf = torch.zeros(2)
        self.buf.zero_()
        self.buf.add_(x.sum(0) * self.scale)
        total = self.buf.clone()
        self.buf.detach_()
        return total

acc = Accum()
x = torch.randn(4, 2)
for step in range(40):
    out = acc(x)
    x = x + 0.01 * out.detach()
print(out.tolist())
"""),
    Example(code="""\
import torch
torch.manual_seed(0)

class Meter:
    def __init__(self, n):
        self._sum = [0] * n

    def update(self, values):
        if isinstance(values, list):
            for i, v in enumerate(values):
                self._sum[i] += v
        else:
            self._sum[0] += values

class Runner:
    def __init__(self):
        self.model = torch.nn.Linear(8, 1)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.01)
        self.losses = Meter(2)

    def train(self):
        for step in range(6):
            loss = self.model(torch.randn(16, 8)).pow(2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.losses.update([loss, loss * 2])

runner = Runner()
runner.train()
""", line=11, note="a meter's running sums two levels down, named at the branch that ran (microsoft/SpareNet#12)", fixed="""\
import torch
torch.manual_seed(0)

class Meter:
    def __init__(self, n):
        self._sum = [0] * n

    def update(self, values):
        if isinstance(values, list):
            for i, v in enumerate(values):
                self._sum[i] += v.detach()
        else:
            self._sum[0] += values

class Runner:
    def __init__(self):
        self.model = torch.nn.Linear(8, 1)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.01)
        self.losses = Meter(2)

    def train(self):
        for step in range(6):
            loss = self.model(torch.randn(16, 8)).pow(2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.losses.update([loss, loss * 2])

runner = Runner()
runner.train()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
w = torch.randn(6, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)


def fit(steps):
    history = []
    for it in range(steps):
        history.append((w - 1).pow(2).sum() + w.abs().sum() * 0.01)
        if len(history) > 1 and abs(history[-1].item() - history[-2].item()) < 1e-6:
            break
        opt.zero_grad()
        history[-1].backward(retain_graph=True)
        opt.step()
    return history


fit(8)
""", line=10, note="each entry is backpropagated from the list, then kept with its graph (tntorch PR 19)", fixed="""\
import torch
torch.manual_seed(0)
w = torch.randn(6, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)


def fit(steps):
    history = []
    for it in range(steps):
        history.append((w - 1).pow(2).sum() + w.abs().sum() * 0.01)
        if len(history) > 1 and abs(history[-1].item() - history[-2].item()) < 1e-6:
            break
        opt.zero_grad()
        history[-1].backward(retain_graph=True)
        history[-1] = history[-1].detach()
        opt.step()
    return history


fit(8)
"""),
    Example(code="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
train_losses, preds = [], []
for i in range(20):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    out = model(x)
    loss = F.mse_loss(out, y)
    opt.zero_grad(); loss.backward(); opt.step()
    train_losses.append(loss); preds.append(out)
print(len(train_losses), len(preds))
""", line=12, note="both logs keep the step's graph: detaching one leaves the other holding it", fixed="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
train_losses, preds = [], []
for i in range(20):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    out = model(x)
    loss = F.mse_loss(out, y)
    opt.zero_grad(); loss.backward(); opt.step()
    train_losses.append(loss.detach()); preds.append(out.detach())
print(len(train_losses), len(preds))
"""),
)
