import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 2))
base_opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
rho = 0.05
X = torch.randn(40, 6)
Y = torch.randint(0, 2, (40,))


def sam_step(xb, yb):
    loss = F.cross_entropy(model(xb), yb)
    base_opt.zero_grad()
    loss.backward()
    grad_norm = torch.norm(torch.stack([p.grad.norm() for p in model.parameters()]))
    eps_list = []
    with torch.no_grad():
        for p in model.parameters():
            e = rho * p.grad / (grad_norm + 1e-12)
            p.add_(e)
            eps_list.append(e)
    base_opt.zero_grad()
    F.cross_entropy(model(xb), yb).backward()  # sharpness-aware gradient at w + e
    with torch.no_grad():
        for p, e in zip(model.parameters(), eps_list):
            p.sub_(e)
    base_opt.step()
    return loss.item()


sam_losses = []
for epoch in range(3):
    for i in range(0, 40, 10):
        sam_losses.append(sam_step(X[i:i + 10], Y[i:i + 10]))
print("final", sam_losses[-1])
