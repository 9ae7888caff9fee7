import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 10), nn.ReLU(), nn.Linear(10, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
params = list(net.parameters())
grad_log = []

for step in range(4):
    x = torch.randn(8, 3)
    y = (x.sum(1, keepdim=True) > 0).float()
    logits = net(x)
    loss = F.binary_cross_entropy_with_logits(logits, y)
    opt.zero_grad()
    loss.backward()
    gnorm = torch.sqrt(sum((p.grad ** 2).sum() for p in params))
    grad_log.append(gnorm.item())
    opt.step()

print(grad_log)
