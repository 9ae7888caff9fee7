"""computed_before_loop examples where the failing loss's own update trains nothing that made
the tensor (a critic's steps over a generator's output made once): the loss reads it detached
(kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

CRITIC_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)


class Pair:
    def __init__(self):
        self.G = torch.nn.Linear(4, 4)
        self.D = torch.nn.Linear(4, 1)
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-3)
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=1e-3)

    def forward(self, z):
        self.fake = self.G(z)

    def backward_d(self, real):
        loss_d = self.D(self.fake).mean() - self.D(real).mean()
        loss_d.backward()


pair = Pair()
z, real = torch.randn(8, 4), torch.randn(8, 4)
pair.forward(z)
for _ in range(3):
    pair.opt_d.zero_grad()
    pair.backward_d(real)
    pair.opt_d.step()
pair.opt_g.zero_grad()
(-pair.D(pair.fake).mean()).backward()
pair.opt_g.step()
""", line=13, note="the generator's output, made once in a method, read by every critic step", fixed="""\
import torch
torch.manual_seed(0)


class Pair:
    def __init__(self):
        self.G = torch.nn.Linear(4, 4)
        self.D = torch.nn.Linear(4, 1)
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-3)
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=1e-3)

    def forward(self, z):
        self.fake = self.G(z)

    def backward_d(self, real):
        loss_d = self.D(self.fake.detach()).mean() - self.D(real).mean()
        loss_d.backward()


pair = Pair()
z, real = torch.randn(8, 4), torch.randn(8, 4)
pair.forward(z)
for _ in range(3):
    pair.opt_d.zero_grad()
    pair.backward_d(real)
    pair.opt_d.step()
pair.opt_g.zero_grad()
(-pair.D(pair.fake).mean()).backward()
pair.opt_g.step()
"""),
)
