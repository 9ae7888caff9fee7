import math
import torch
import torch.nn as nn

torch.manual_seed(0)

# solve u'(x) = cos(x), u(0) = 0 on [0, pi]
net = nn.Sequential(nn.Linear(1, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
x0 = torch.zeros(1, 1)

for it in range(5):
    x = (torch.rand(32, 1) * math.pi).requires_grad_()
    u = net(x)
    du = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    residual = du - torch.cos(x)
    loss = residual.pow(2).mean() + net(x0).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
