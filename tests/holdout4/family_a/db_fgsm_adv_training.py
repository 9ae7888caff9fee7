# cause: double_backward
# line: 25
# why: autograd.grad on clean_loss frees its graph, so the later clean_loss.backward() walks freed buffers.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(64, 10)
Y = torch.randint(0, 3, (64,))
eps = 0.05

for epoch in range(3):
    for i in range(0, 64, 16):
        xb = X[i:i + 16].clone().requires_grad_(True)
        yb = Y[i:i + 16]
        clean_loss = F.cross_entropy(model(xb), yb)
        # input gradient for the FGSM perturbation
        x_grad, = torch.autograd.grad(clean_loss, xb)
        x_adv = (xb + eps * x_grad.sign()).detach()
        adv_loss = F.cross_entropy(model(x_adv), yb)
        opt.zero_grad()
        clean_loss.backward()
        adv_loss.backward()
        opt.step()
    print(f"epoch {epoch} clean={clean_loss.item():.3f} adv={adv_loss.item():.3f}")
