import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4)).eval()
model.requires_grad_(False)
x = torch.randn(8, 10)
y = model(x).argmax(1)

eps, alpha = 0.3, 0.1
delta = torch.zeros_like(x, requires_grad=True)
for it in range(5):
    loss = F.cross_entropy(model(x + delta), y)
    loss.backward()
    with torch.no_grad():
        delta += alpha * delta.grad.sign()
        delta.clamp_(-eps, eps)
    delta.grad.zero_()
x_adv = (x + delta).detach()
