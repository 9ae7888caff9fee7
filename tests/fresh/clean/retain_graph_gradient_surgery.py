import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
trunk = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
head_a, head_b = nn.Linear(8, 1), nn.Linear(8, 1)
params = list(trunk.parameters())
opt = torch.optim.SGD(list(trunk.parameters()) + list(head_a.parameters()) + list(head_b.parameters()), lr=0.05)
for step in range(3):
    x = torch.randn(6, 4)
    h = trunk(x)
    loss_a = F.mse_loss(head_a(h), torch.randn(6, 1))
    loss_b = F.mse_loss(head_b(h), torch.randn(6, 1))
    opt.zero_grad()
    # two passes through the shared trunk are intended: per-task gradients are projected
    loss_a.backward(retain_graph=True)
    g_a = [p.grad.clone() for p in params]
    for p in params:
        p.grad = None
    loss_b.backward()
    g_b = [p.grad.clone() for p in params]
    dot = sum((a * b).sum() for a, b in zip(g_a, g_b))
    nb = sum((b * b).sum() for b in g_b) + 1e-12
    for p, a, b in zip(params, g_a, g_b):
        p.grad = (a - torch.clamp(dot, max=0) / nb * b) + b
    opt.step()
