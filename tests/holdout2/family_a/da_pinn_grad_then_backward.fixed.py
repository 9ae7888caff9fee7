import torch
import torch.nn as nn

torch.manual_seed(0)

# Physics-informed net for the decay ODE u'(x) + u(x) = 0 with u(0) = 1.
net = nn.Sequential(nn.Linear(1, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
x0 = torch.zeros(1, 1)
losses = []

for it in range(5):
    x = (torch.rand(64, 1) * 2.0).requires_grad_(True)
    u = net(x)
    du_dx = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    residual = du_dx + u
    loss = residual.pow(2).mean() + (net(x0) - 1.0).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
