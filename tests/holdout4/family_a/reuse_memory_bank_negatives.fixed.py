import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 8))
opt = torch.optim.SGD(encoder.parameters(), lr=0.05)
memory_bank = []
tau = 0.2


def augment(x):
    return x + 0.1 * torch.randn_like(x)


for step in range(6):
    x = torch.randn(8, 20)
    z1 = F.normalize(encoder(augment(x)), dim=1)
    z2 = F.normalize(encoder(augment(x)), dim=1)
    pos = (z1 * z2).sum(1, keepdim=True) / tau
    if memory_bank:
        negs = torch.cat(memory_bank[-4:], dim=0)
        logits = torch.cat([pos, z1 @ negs.t() / tau], dim=1)
    else:
        logits = pos
    loss = F.cross_entropy(logits, torch.zeros(8, dtype=torch.long))
    opt.zero_grad()
    loss.backward()
    opt.step()
    memory_bank.append(z2.detach())
    print(step, round(loss.item(), 4), "bank", len(memory_bank))
