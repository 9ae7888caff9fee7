# source: https://whosebug.com/question/5232549/How-does-PyTorch-s-loss-backward-work-when-retain-graph-True-is-specified
import torch
import torch.nn as nn

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, nz=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(), nn.Linear(32, 12))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


gen, disc = Generator(), Discriminator()
optim_g = torch.optim.Adam(gen.parameters(), lr=1e-3)
optim_d = torch.optim.Adam(disc.parameters(), lr=1e-3)
criterion = nn.BCEWithLogitsLoss()

for step in range(3):
    real = torch.randn(6, 12)
    z = torch.randn(6, 8)
    fake = gen(z)
    # computing loss_g and loss_d...
    d_fake = disc(fake)
    d_real = disc(real)
    loss_g = criterion(d_fake, torch.ones_like(d_fake))
    d_fake_detached = disc(fake.detach())
    loss_d = criterion(d_real, torch.ones_like(d_real)) + criterion(d_fake_detached, torch.zeros_like(d_fake_detached))

    optim_g.zero_grad()
    loss_g.backward()
    optim_g.step()

    optim_d.zero_grad()
    loss_d.backward()
    optim_d.step()
    print(step, loss_g.item(), loss_d.item())
