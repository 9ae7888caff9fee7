import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
critic = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.0, 0.9))
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.0, 0.9))
data = torch.randn(256, 2) * 0.5 + 2.0
lambda_gp = 10.0
n_critic = 3


def gradient_penalty(real, fake):
    a = torch.rand(real.shape[0], 1)
    interp = (a * real + (1 - a) * fake).requires_grad_(True)
    scores = critic(interp)
    grads, = torch.autograd.grad(scores.sum(), interp, create_graph=True)
    return ((grads.norm(dim=1) - 1) ** 2).mean()


for it in range(6):
    for _ in range(n_critic):
        real = data[torch.randint(0, 256, (32,))]
        with torch.no_grad():
            fake = G(torch.randn(32, 4))
        c_loss = critic(fake).mean() - critic(real).mean() + lambda_gp * gradient_penalty(real, fake)
        opt_c.zero_grad()
        c_loss.backward()
        opt_c.step()
    g_loss = -critic(G(torch.randn(32, 4))).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(it, round(c_loss.item(), 3), round(g_loss.item(), 3))
