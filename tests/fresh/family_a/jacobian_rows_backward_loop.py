# cause: shared_subgraph_multiple_backward
# line: 16
# why: Each output component y[0, i] shares the network graph; the per-row backward in the loop frees it on the first row so the second row fails.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2))
x = torch.randn(1, 3, requires_grad=True)
y = net(x)

rows = []
for i in range(y.shape[1]):
    if x.grad is not None:
        x.grad.zero_()
    y[0, i].backward()
    rows.append(x.grad.clone())
J = torch.cat(rows)
print(J)
