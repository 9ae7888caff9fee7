import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.linspace(-2, 2, 64).unsqueeze(1)
Y = torch.sin(2 * X) + 0.05 * torch.randn_like(X)
model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.99)
weight_decay = 1e-3
best, patience, it = float("inf"), 0, 0
while it < 200 and patience < 10:
    opt.zero_grad()
    loss = F.mse_loss(model(X), Y) + weight_decay * sum(p.pow(2).sum() for p in model.parameters())
    loss.backward()
    opt.step()
    sched.step()
    if loss.item() < best - 1e-4:
        best, patience = loss.item(), 0
    else:
        patience += 1
    it += 1
print("stopped at", it, "best", best)
