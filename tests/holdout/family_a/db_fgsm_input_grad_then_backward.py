# cause: double_backward
# line: 22
# why: autograd.grad(clean_loss, x) without retain_graph frees the clean-loss graph, which the combined loss then backpropagates through again.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
eps = 0.1
data = [(torch.randn(16, 20), torch.randint(0, 4, (16,))) for _ in range(3)]

for x, y in data:
    x = x.clone().requires_grad_(True)
    clean_loss = F.cross_entropy(model(x), y)
    (x_grad,) = torch.autograd.grad(clean_loss, x)
    x_adv = (x + eps * x_grad.sign()).detach()
    adv_loss = F.cross_entropy(model(x_adv), y)
    optimizer.zero_grad()
    (0.5 * clean_loss + 0.5 * adv_loss).backward()
    optimizer.step()
