"""computed_before_loop examples of a value a module's constructor derives from its own
parameter, made in a statement before (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

DERIVED_BAD = (
    Example(code="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)


class Scaled(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.raw_scale = torch.nn.Parameter(torch.zeros(dim))
        self.scale = F.softplus(self.raw_scale)

    def forward(self, x):
        return x * self.scale


model = Scaled(3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = (model(torch.randn(4, 3)) - 1).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=10, note="a positive scale derived once from its raw parameter in the constructor: "
                     "derived on each read instead (pyro-ppl/pyro#2545's spline knots)", fixed="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)


class Scaled(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.raw_scale = torch.nn.Parameter(torch.zeros(dim))

    @property
    def scale(self):
        return F.softplus(self.raw_scale)

    def forward(self, x):
        return x * self.scale


model = Scaled(3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = (model(torch.randn(4, 3)) - 1).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
)
