import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2))
x = torch.randn(1, 3, requires_grad=True)
y = net(x)

rows = []
for i in range(y.shape[1]):
    # every row needs the same graph: keep it alive for the next row
    g, = torch.autograd.grad(y[0, i], x, retain_graph=True)
    rows.append(g)
J = torch.cat(rows)
print(J)
