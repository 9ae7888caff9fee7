# cause: non_scalar_backward
# line: 16
# why: torch.autograd.grad(u, x) is called on the vector output u without grad_outputs.
import torch
import torch.nn as nn

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(1, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
x = torch.linspace(0, 1, 32).unsqueeze(1).requires_grad_(True)
x0 = torch.zeros(1, 1)

for step in range(3):
    u = net(x)
    du_dx = torch.autograd.grad(u, x, create_graph=True)[0]
    residual = du_dx + u
    loss = residual.pow(2).mean() + (net(x0) - 1.0).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
