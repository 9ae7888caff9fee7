import torch
import torch.nn as nn

torch.manual_seed(0)


class WGANGP:
    def __init__(self, z_dim=8, x_dim=2, n_critic=2, gp_weight=10.0):
        self.z_dim, self.n_critic, self.gp_weight = z_dim, n_critic, gp_weight
        self.G = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, x_dim))
        self.C = nn.Sequential(nn.Linear(x_dim, 32), nn.Tanh(), nn.Linear(32, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-4, betas=(0.5, 0.9))
        self.opt_c = torch.optim.Adam(self.C.parameters(), lr=1e-4, betas=(0.5, 0.9))

    def gradient_penalty(self, real, fake):
        eps = torch.rand(real.size(0), 1)
        mix = (eps * real + (1 - eps) * fake).requires_grad_(True)
        (g,) = torch.autograd.grad(self.C(mix).sum(), mix, create_graph=True)
        return ((g.norm(2, dim=1) - 1) ** 2).mean()

    def step(self, real):
        for _ in range(self.n_critic):
            fake = self.G(torch.randn(real.size(0), self.z_dim)).detach()
            c_loss = self.C(fake).mean() - self.C(real).mean() + self.gp_weight * self.gradient_penalty(real, fake)
            self.opt_c.zero_grad()
            c_loss.backward()
            self.opt_c.step()
        fake = self.G(torch.randn(real.size(0), self.z_dim))
        g_loss = -self.C(fake).mean()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return c_loss.item(), g_loss.item()


gan = WGANGP()
for it in range(4):
    real = torch.randn(16, 2) + torch.tensor([1.0, 1.0])
    print(it, gan.step(real))
