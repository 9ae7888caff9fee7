# cause: tensor_reused_across_iterations
# line: 49
# why: train_step stores the generator output in self.fake_pool without detach, and later discriminator steps replay those fakes whose generator graph was freed by an earlier G backward.
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)


class GANTrainer:
    def __init__(self, z_dim=8, x_dim=2, pool_size=5):
        self.z_dim = z_dim
        self.G = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, x_dim))
        self.D = nn.Sequential(nn.Linear(x_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.pool_size = pool_size
        self.fake_pool = []

    def sample_history(self, n):
        if not self.fake_pool:
            return []
        return random.sample(self.fake_pool, min(n, len(self.fake_pool)))

    def train_step(self, real):
        b = real.size(0)
        fake = self.G(torch.randn(b, self.z_dim))

        # discriminator: current fakes (detached) plus replayed history
        fakes = torch.cat([fake.detach()] + self.sample_history(2))
        d_real = self.D(real)
        d_fake = self.D(fakes)
        d_loss = F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real)) + \
            F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake))
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()

        # generator
        g_out = self.D(fake)
        g_loss = F.binary_cross_entropy_with_logits(g_out, torch.ones_like(g_out))
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()

        self.fake_pool.append(fake)
        self.fake_pool = self.fake_pool[-self.pool_size:]
        return d_loss.item(), g_loss.item()


trainer = GANTrainer()
for it in range(6):
    real = torch.randn(16, 2) * 0.5 + torch.tensor([2.0, -1.0])
    print(it, trainer.train_step(real))
