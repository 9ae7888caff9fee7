"""shared_subgraph_multiple_backward examples that runtime facts decide: which optimizers train
what made the freed part (two methods naming one attribute differently, either step first; a
second loss that trains through every freed input), or which name only leads to it (an
actor-critic's advantages) (kept apart: the example modules stay small)."""
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
    Example(code="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)

actor = torch.nn.Linear(4, 2)
critic = torch.nn.Linear(4, 1)
optimizer = torch.optim.Adam(list(actor.parameters()) + list(critic.parameters()), lr=0.01)


def calculate_advantages(returns, values):
    advantages = returns - values
    return (advantages - advantages.mean()) / advantages.std()


def update_policy(advantages, log_prob_actions, returns, values):
    returns = returns.detach()
    policy_loss = -(advantages * log_prob_actions).sum()
    value_loss = F.smooth_l1_loss(returns, values).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    value_loss.backward()
    optimizer.step()


for episode in range(3):
    states = torch.randn(6, 4)
    log_prob_actions = torch.log_softmax(actor(states), -1)[:, 0]
    values = critic(states).squeeze(-1)
    returns = torch.randn(6)
    advantages = calculate_advantages(returns, values)
    update_policy(advantages, log_prob_actions, returns, values)
""", line=17, note="an actor-critic's policy loss on advantages made from the critic's values, "
                     "then the value loss: the policy's backward freed the critic's graph; the advantages "
                     "are read as a constant (bentrevett/pytorch-rl#2, its A2C notebook)", fixed="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)

actor = torch.nn.Linear(4, 2)
critic = torch.nn.Linear(4, 1)
optimizer = torch.optim.Adam(list(actor.parameters()) + list(critic.parameters()), lr=0.01)


def calculate_advantages(returns, values):
    advantages = returns - values
    return (advantages - advantages.mean()) / advantages.std()


def update_policy(advantages, log_prob_actions, returns, values):
    returns = returns.detach()
    policy_loss = -(advantages.detach() * log_prob_actions).sum()
    value_loss = F.smooth_l1_loss(returns, values).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    value_loss.backward()
    optimizer.step()


for episode in range(3):
    states = torch.randn(6, 4)
    log_prob_actions = torch.log_softmax(actor(states), -1)[:, 0]
    values = critic(states).squeeze(-1)
    returns = torch.randn(6)
    advantages = calculate_advantages(returns, values)
    update_policy(advantages, log_prob_actions, returns, values)
"""),
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
    trainer.update_d(torch.randn(8, 4))
    trainer.update_g()
""", line=26, note="the critic's step first, its loss in a method handed the generator's output: "
                     "the critic's optimizer trains nothing behind it, so that call hands it detached", fixed="""\
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
        self.critic_loss(real, self.fake.detach())
        self.opt_d.step()


trainer = Trainer()
for step in range(2):
    trainer.generate(torch.randn(8, 2))
    trainer.update_d(torch.randn(8, 4))
    trainer.update_g()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)


class VAE(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = torch.nn.Linear(4, 2)
        self.decoder = torch.nn.Linear(2, 4)


netG, netD = VAE(), torch.nn.Linear(4, 1)
optimizerG = torch.optim.Adam(netG.parameters(), lr=1e-3)
x = torch.randn(8, 4)
for step in range(2):
    netG.zero_grad()
    code = netG.encoder(x)
    rec = netG.decoder(code)
    vae_err = (rec - x).pow(2).mean()
    vae_err.backward()
    optimizerG.step()
    err_g = -netD(rec).mean()
    err_g.backward()
    optimizerG.step()
""", line=22, note="a VAE-GAN's adversarial step on the reconstruction the VAE step's backward freed: "
                     "its optimizer trains the whole generator, so the encoder runs again too "
                     "(seangal/dcgan_vae_pytorch#4)", fixed="""\
import torch
torch.manual_seed(0)


class VAE(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = torch.nn.Linear(4, 2)
        self.decoder = torch.nn.Linear(2, 4)


netG, netD = VAE(), torch.nn.Linear(4, 1)
optimizerG = torch.optim.Adam(netG.parameters(), lr=1e-3)
x = torch.randn(8, 4)
for step in range(2):
    netG.zero_grad()
    code = netG.encoder(x)
    rec = netG.decoder(code)
    vae_err = (rec - x).pow(2).mean()
    vae_err.backward()
    optimizerG.step()
    err_g = -netD(netG.decoder(netG.encoder(x))).mean()
    err_g.backward()
    optimizerG.step()
"""),
)
