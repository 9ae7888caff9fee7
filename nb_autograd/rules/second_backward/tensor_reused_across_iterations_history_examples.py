"""tensor_reused_across_iterations examples of a module keeping rolling histories of its own
statistics (FP8 amax histories, range trackers): each feeds on its own past, so all are cut
where they read themselves, in one fix; a Lagrange multiplier summed from the constraint it
weighs, a state carried between steps rather than a loss added up (kept apart: the example
modules stay small)."""
from __future__ import annotations

from ..base import Example

HISTORY_BAD = (
    Example(code="""\
import torch


class RangeTracker(torch.nn.Module):
    def __init__(self, dim, keep=3):
        super().__init__()
        self.lin = torch.nn.Linear(dim, dim)
        self.register_buffer("lows", torch.zeros(keep))
        self.register_buffer("highs", torch.ones(keep))

    def forward(self, x):
        y = self.lin(x)
        self.lows = torch.cat([self.lows[1:], y.min().reshape(1)])
        self.highs = torch.cat([self.highs[1:], y.max().reshape(1)])
        return (y - self.lows.mean()) / (self.highs.mean() - self.lows.mean() + 1e-3)


net = RangeTracker(4)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    loss = net(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=13, note="two rolling histories a module keeps of its own outputs", fixed="""\
import torch


class RangeTracker(torch.nn.Module):
    def __init__(self, dim, keep=3):
        super().__init__()
        self.lin = torch.nn.Linear(dim, dim)
        self.register_buffer("lows", torch.zeros(keep))
        self.register_buffer("highs", torch.ones(keep))

    def forward(self, x):
        y = self.lin(x)
        self.lows = torch.cat([self.lows.detach()[1:], y.min().reshape(1)])
        self.highs = torch.cat([self.highs.detach()[1:], y.max().reshape(1)])
        return (y - self.lows.mean()) / (self.highs.mean() - self.lows.mean() + 1e-3)


net = RangeTracker(4)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    loss = net(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
student = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
ema_weights = [p.clone() for p in student.parameters()]
for step in range(3):
    x = torch.randn(8, 4)
    target = x @ ema_weights[0].t() + ema_weights[1]
    loss = torch.nn.functional.mse_loss(student(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_weights = [0.99 * e + 0.01 * p for e, p in zip(ema_weights, student.parameters())]
""", line=13, note="an average of the weights rebuilt each step by a list comprehension, with the graph", fixed="""\
import torch
torch.manual_seed(0)
student = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
ema_weights = [p.clone() for p in student.parameters()]
for step in range(3):
    x = torch.randn(8, 4)
    target = x @ ema_weights[0].t() + ema_weights[1]
    loss = torch.nn.functional.mse_loss(student(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_weights = [(0.99 * e + 0.01 * p).detach() for e, p in zip(ema_weights, student.parameters())]
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), 1e-2)
lam = torch.tensor(0.0)
x = torch.randn(32, 3)
for it in range(4):
    out = model(x)
    constraint = out.mean() - 1.0
    loss = out.pow(2).mean() + lam * constraint
    opt.zero_grad()
    loss.backward()
    opt.step()
    lam = lam + 0.1 * constraint
""", line=14, note="the multiplier's ascent step keeps each constraint's graph: it is a plain value between steps", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), 1e-2)
lam = torch.tensor(0.0)
x = torch.randn(32, 3)
for it in range(4):
    out = model(x)
    constraint = out.mean() - 1.0
    loss = out.pow(2).mean() + lam * constraint
    opt.zero_grad()
    loss.backward()
    opt.step()
    lam = (lam + 0.1 * constraint).detach()
"""),
)
