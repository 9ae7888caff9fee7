# cause: leaf_inplace
# line: 21
# why: The PGD perturbation delta is a leaf that requires grad, and delta += alpha * delta.grad.sign() updates it in place with grad mode on.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10)).eval()
x = torch.rand(4, 1, 8, 8)
y = torch.randint(0, 10, (4,))
eps, alpha, steps = 8 / 255, 2 / 255, 5


def pgd(model, x, y):
    delta = torch.zeros_like(x, requires_grad=True)
    for _ in range(steps):
        loss = F.cross_entropy(model(x + delta), y)
        loss.backward()
        delta += alpha * delta.grad.sign()
        delta.clamp_(-eps, eps)
        delta.grad.zero_()
    return (x + delta).clamp(0, 1).detach()


x_adv = pgd(model, x, y)
print((x_adv - x).abs().max().item())
