# cause: non_scalar_backward
# line: 17
# why: backward() is called on the batch of model outputs instead of on the scalar loss.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 1))
crit = nn.MSELoss()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(3):
    x = torch.randn(10, 2)
    y = x.prod(dim=1, keepdim=True)
    output = net(x)
    loss = crit(output, y)
    opt.zero_grad()
    output.backward()
    opt.step()
