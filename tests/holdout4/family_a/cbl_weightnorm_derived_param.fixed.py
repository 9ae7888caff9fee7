import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
# hand-rolled weight normalisation: w = g * v / ||v||
v = torch.randn(8, 1, requires_grad=True)
g = torch.ones(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.Adam([v, g, b], lr=0.05)
X = torch.randn(64, 8)
Y = (X.sum(1, keepdim=True) > 0).float()
for step in range(30):
    w = g * v / v.norm()
    logits = X @ w + b
    loss = F.binary_cross_entropy_with_logits(logits, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(loss.item(), 4))
