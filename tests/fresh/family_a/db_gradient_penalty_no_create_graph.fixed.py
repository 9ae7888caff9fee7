import torch
import torch.nn as nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(2, 16), nn.Softplus(), nn.Linear(16, 1))
opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
real = torch.randn(32, 2)

for step in range(3):
    x = real + 0.1 * torch.randn_like(real)
    x.requires_grad_(True)
    score = critic(x)
    grad_x, = torch.autograd.grad(score.sum(), x, create_graph=True)
    penalty = ((grad_x.norm(dim=1) - 1) ** 2).mean()
    loss = -score.mean() + 10.0 * penalty
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
