import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
enc = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 8))
opt = torch.optim.SGD(enc.parameters(), lr=0.05)
bank = F.normalize(torch.randn(16, 8), dim=1)
for step in range(4):
    x = torch.randn(4, 5)
    q = F.normalize(enc(x), dim=1)
    k = F.normalize(enc(x + 0.05 * torch.randn_like(x)), dim=1)
    logits = torch.cat([(q * k).sum(1, keepdim=True), q @ bank.t()], dim=1) / 0.1
    loss = F.cross_entropy(logits, torch.zeros(4, dtype=torch.long))
    opt.zero_grad()
    loss.backward()
    opt.step()
    bank = torch.cat([k.detach(), bank], dim=0)[:16]
