import torch
import torch.nn as nn

torch.manual_seed(0)

G = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))
C = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-4, betas=(0.0, 0.9))
opt_c = torch.optim.Adam(C.parameters(), lr=1e-4, betas=(0.0, 0.9))
for step in range(3):
    real = torch.randn(16, 2) * 0.5 + 1.0
    fake = G(torch.randn(16, 3))
    eps = torch.rand(16, 1)
    mix = (eps * real + (1 - eps) * fake.detach()).requires_grad_(True)
    grad = torch.autograd.grad(C(mix).sum(), mix, create_graph=True)[0]
    gp = ((grad.norm(dim=1) - 1) ** 2).mean()
    c_loss = C(fake.detach()).mean() - C(real).mean() + 10 * gp
    opt_c.zero_grad()
    c_loss.backward()
    opt_c.step()

    g_loss = -C(fake).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
