import torch
import torch.nn as nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(2, 16), nn.Softplus(), nn.Linear(16, 1))
opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
for step in range(3):
    real = torch.randn(8, 2) + 1
    fake = torch.randn(8, 2)
    eps = torch.rand(8, 1)
    interp = (eps * real + (1 - eps) * fake).requires_grad_(True)
    grad, = torch.autograd.grad(critic(interp).sum(), interp, create_graph=True)
    gp = ((grad.norm(dim=1) - 1) ** 2).mean()
    loss = critic(fake).mean() - critic(real).mean() + 10 * gp
    opt.zero_grad()
    loss.backward()
    opt.step()
