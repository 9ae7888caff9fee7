import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MoCoLite(nn.Module):
    def __init__(self, dim=8, k=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, dim))
        self.k = k
        self.bank = F.normalize(torch.randn(k, dim), dim=1)
        self.t = 0.1

    def forward(self, x):
        q = F.normalize(self.enc(x), dim=1)
        k = F.normalize(self.enc(x + 0.05 * torch.randn_like(x)), dim=1)
        pos = (q * k).sum(1, keepdim=True)
        neg = q @ self.bank.t()
        logits = torch.cat([pos, neg], dim=1) / self.t
        loss = F.cross_entropy(logits, torch.zeros(x.size(0), dtype=torch.long))
        self.bank = torch.cat([k.detach(), self.bank], dim=0)[: self.k]
        return loss


model = MoCoLite()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(4):
    loss = model(torch.randn(4, 5))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
