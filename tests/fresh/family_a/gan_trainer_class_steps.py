# cause: shared_subgraph_multiple_backward
# line: 21
# why: train_step passes the same undetached fake batch to d_step and g_step; the D backward frees the generator graph that the G backward needs.
import torch
import torch.nn as nn

torch.manual_seed(0)


class GANTrainer:
    def __init__(self, zdim=3):
        self.zdim = zdim
        self.G = nn.Sequential(nn.Linear(zdim, 12), nn.ReLU(), nn.Linear(12, 4), nn.Tanh())
        self.D = nn.Sequential(nn.Linear(4, 12), nn.ReLU(), nn.Linear(12, 1), nn.Sigmoid())
        self.opt_G = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.opt_D = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.crit = nn.BCELoss()

    def d_step(self, real, fake):
        self.opt_D.zero_grad()
        p_real, p_fake = self.D(real), self.D(fake)
        loss = self.crit(p_real, torch.ones_like(p_real)) + self.crit(p_fake, torch.zeros_like(p_fake))
        loss.backward()
        self.opt_D.step()
        return loss.item()

    def g_step(self, fake):
        self.opt_G.zero_grad()
        p = self.D(fake)
        loss = self.crit(p, torch.ones_like(p))
        loss.backward()
        self.opt_G.step()
        return loss.item()

    def train_step(self, real):
        fake = self.G(torch.randn(real.size(0), self.zdim))
        return self.d_step(real, fake), self.g_step(fake)


trainer = GANTrainer()
dataset = [torch.rand(8, 4) * 2 - 1 for _ in range(3)]
for real in dataset:
    print(trainer.train_step(real))
