# cause: non_scalar_backward
# line: 13
# why: torch.autograd.grad is called on the vector u(x) without grad_outputs, which only works for scalar outputs.
import torch
import torch.nn as nn

torch.manual_seed(0)
u_net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(u_net.parameters(), lr=1e-3)
for step in range(3):
    x = torch.rand(20, 1, requires_grad=True)
    u = u_net(x)
    du_dx, = torch.autograd.grad(u, x, create_graph=True)
    residual = du_dx - torch.cos(x)
    loss = residual.pow(2).mean() + u_net(torch.zeros(1, 1)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
