import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
trunk = nn.Linear(5, 8)
heads = nn.ModuleList([nn.Linear(8, 1) for _ in range(3)])
opt = torch.optim.Adam(list(trunk.parameters()) + list(heads.parameters()), lr=1e-2)
for step in range(3):
    x = torch.randn(6, 5)
    ys = [torch.randn(6, 1) for _ in range(3)]
    h = torch.relu(trunk(x))
    losses = [F.mse_loss(head(h), y) for head, y in zip(heads, ys)]
    total = torch.stack(losses).sum()
    opt.zero_grad()
    total.backward()
    opt.step()
