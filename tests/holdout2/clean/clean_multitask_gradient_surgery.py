import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# PCGrad-style: per-task gradients need two backward passes through one
# shared graph, so the first pass deliberately retains it.
trunk = nn.Sequential(nn.Linear(6, 16), nn.ReLU())
head_a, head_b = nn.Linear(16, 1), nn.Linear(16, 3)
params = list(trunk.parameters())
opt = torch.optim.SGD(list(trunk.parameters()) + list(head_a.parameters()) + list(head_b.parameters()), lr=0.05)
X = torch.randn(24, 6)
ya = X[:, :1] * 2
yb = torch.randint(0, 3, (24,))
for step in range(3):
    h = trunk(X)
    loss_a = F.mse_loss(head_a(h), ya)
    loss_b = F.cross_entropy(head_b(h), yb)
    opt.zero_grad()
    ga = torch.autograd.grad(loss_a, params, retain_graph=True)
    gb = torch.autograd.grad(loss_b, params, retain_graph=True)
    dot = sum((a * b).sum() for a, b in zip(ga, gb))
    if dot < 0:
        nb = sum((b * b).sum() for b in gb)
        ga = [a - dot / nb * b for a, b in zip(ga, gb)]
    (loss_a + loss_b).backward()
    for p, a, b in zip(params, ga, gb):
        p.grad = a + b
    opt.step()
