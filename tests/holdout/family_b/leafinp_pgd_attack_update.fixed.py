import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def pgd_attack(model, x, y, eps=0.1, alpha=0.03, steps=3):
    x_adv = x.clone().requires_grad_(True)
    for _ in range(steps):
        loss = F.cross_entropy(model(x_adv), y)
        (grad,) = torch.autograd.grad(loss, x_adv)
        x_adv = x_adv.detach() + alpha * grad.sign()
        x_adv = torch.min(torch.max(x_adv, x - eps), x + eps).requires_grad_(True)
    return x_adv.detach()


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(2):
    x, y = torch.randn(8, 10), torch.randint(0, 3, (8,))
    x_adv = pgd_attack(model, x, y)
    loss = F.cross_entropy(model(x_adv), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
