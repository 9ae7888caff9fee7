import math
import torch
import torch.nn as nn

torch.manual_seed(0)

# Physics-informed net for u'(x) = cos(x), u(0) = 0.
net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for it in range(4):
    x = (torch.rand(32, 1) * math.pi).requires_grad_(True)
    u = net(x)
    du_dx = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    loss = (du_dx - torch.cos(x)).pow(2).mean() + net(torch.zeros(1, 1)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
