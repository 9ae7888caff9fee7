"""shared_subgraph_multiple_backward examples whose two losses live in different methods of a
trainer, joined by an attribute the code names differently in each (kept apart: the example
modules stay small)."""
from __future__ import annotations

from ..base import Example

METHODS_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)


class Trainer:
    def __init__(self):
        self.G = torch.nn.Linear(2, 4)
        self.D = torch.nn.Linear(4, 1)
        self.opt_g = torch.optim.SGD(self.G.parameters(), lr=0.1)
        self.opt_d = torch.optim.SGD(self.D.parameters(), lr=0.1)

    def generate(self, z):
        self.fake = self.G(z)

    def update_g(self):
        self.opt_g.zero_grad()
        (-self.D(self.fake).mean()).backward()
        self.opt_g.step()

    def critic_loss(self, real, fake):
        score = self.D(fake).mean() - self.D(real).mean()
        score.backward()

    def update_d(self, real):
        self.opt_d.zero_grad()
        self.critic_loss(real, self.fake)
        self.opt_d.step()


trainer = Trainer()
for step in range(2):
    trainer.generate(torch.randn(8, 2))
    trainer.update_g()
    trainer.update_d(torch.randn(8, 4))
""", line=21, note="the generator's step first, then the critic's loss on the same output in another "
                     "method: the critic's optimizer trains nothing behind it, so it reads it detached "
                     "(CycleGAN's backward_D_basic, junyanz/pytorch-CycleGAN-and-pix2pix#388)", fixed="""\
import torch
torch.manual_seed(0)


class Trainer:
    def __init__(self):
        self.G = torch.nn.Linear(2, 4)
        self.D = torch.nn.Linear(4, 1)
        self.opt_g = torch.optim.SGD(self.G.parameters(), lr=0.1)
        self.opt_d = torch.optim.SGD(self.D.parameters(), lr=0.1)

    def generate(self, z):
        self.fake = self.G(z)

    def update_g(self):
        self.opt_g.zero_grad()
        (-self.D(self.fake).mean()).backward()
        self.opt_g.step()

    def critic_loss(self, real, fake):
        score = self.D(fake.detach()).mean() - self.D(real).mean()
        score.backward()

    def update_d(self, real):
        self.opt_d.zero_grad()
        self.critic_loss(real, self.fake)
        self.opt_d.step()


trainer = Trainer()
for step in range(2):
    trainer.generate(torch.randn(8, 2))
    trainer.update_g()
    trainer.update_d(torch.randn(8, 4))
"""),
)
