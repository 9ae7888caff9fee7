import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
teacher = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1)).eval()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
x_all = torch.linspace(0, 2, 64).unsqueeze(1)
with torch.no_grad():
    teacher_u = teacher(x_all)
for it in range(4):
    x = x_all.clone().requires_grad_(True)
    u = net(x)
    du = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    physics = (du + u).pow(2).mean()
    distill = F.mse_loss(u, teacher_u)
    loss = physics + 0.1 * distill
    opt.zero_grad()
    loss.backward()
    opt.step()
