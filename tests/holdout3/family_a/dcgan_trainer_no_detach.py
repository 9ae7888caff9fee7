# cause: shared_subgraph_multiple_backward
# line: 49
# why: The discriminator loss uses the generator output without detach, so d_loss.backward() frees the generator graph that g_loss.backward() then needs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, z_dim=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(z_dim, 16, 4, 1, 0), nn.BatchNorm2d(16), nn.ReLU(),
            nn.ConvTranspose2d(16, 1, 4, 2, 1), nn.Tanh(),
        )

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 16, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(16 * 4 * 4, 1),
        )

    def forward(self, x):
        return self.net(x)


class DCGANTrainer:
    def __init__(self, z_dim=16):
        self.z_dim = z_dim
        self.G, self.D = Generator(z_dim), Discriminator()
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.bce = nn.BCEWithLogitsLoss()

    def step(self, real):
        b = real.size(0)
        ones, zeros = torch.ones(b, 1), torch.zeros(b, 1)
        fake = self.G(torch.randn(b, self.z_dim, 1, 1))

        self.opt_d.zero_grad()
        d_loss = self.bce(self.D(real), ones) + self.bce(self.D(fake), zeros)
        d_loss.backward()
        self.opt_d.step()

        self.opt_g.zero_grad()
        g_loss = self.bce(self.D(fake), ones)
        g_loss.backward()
        self.opt_g.step()
        return d_loss.item(), g_loss.item()


trainer = DCGANTrainer()
for it in range(3):
    real = torch.rand(8, 1, 8, 8) * 2 - 1
    print(it, trainer.step(real))
