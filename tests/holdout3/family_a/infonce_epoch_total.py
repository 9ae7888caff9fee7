# cause: accumulated_loss_backward_in_loop
# line: 30
# why: total_loss is initialised before the while loop and keeps accumulating InfoNCE losses, so the second epoch's backward reaches the first epoch's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def info_nce(z1, z2, tau=0.2):
    z1, z2 = F.normalize(z1, dim=1), F.normalize(z2, dim=1)
    logits = z1 @ z2.t() / tau
    return F.cross_entropy(logits, torch.arange(z1.size(0)))


def augment(x):
    return x + 0.1 * torch.randn_like(x)


encoder = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 16))
opt = torch.optim.SGD(encoder.parameters(), lr=0.05)
data = torch.randn(48, 20)

total_loss = 0
epoch = 0
while epoch < 3:
    for b in range(0, 48, 16):
        xb = data[b:b + 16]
        total_loss += info_nce(encoder(augment(xb)), encoder(augment(xb)))
    opt.zero_grad()
    total_loss.backward()
    opt.step()
    print(f"epoch {epoch}: {total_loss.item():.3f}")
    epoch += 1
