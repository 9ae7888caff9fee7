import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MoCo(nn.Module):
    def __init__(self, dim=16, K=64, m=0.99, T=0.1):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(24, 48), nn.ReLU(), nn.Linear(48, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad_(False)
        self.register_buffer("queue", F.normalize(torch.randn(K, dim), dim=1))
        self.register_buffer("ptr", torch.zeros((), dtype=torch.long))

    @torch.no_grad()
    def momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    @torch.no_grad()
    def enqueue(self, k):
        p = int(self.ptr)
        self.queue[p:p + k.size(0)] = k
        self.ptr.fill_((p + k.size(0)) % self.K)

    def forward(self, x1, x2):
        q = F.normalize(self.encoder_q(x1), dim=1)
        with torch.no_grad():
            self.momentum_update()
            k = F.normalize(self.encoder_k(x2), dim=1)
        logits = torch.cat([(q * k).sum(1, keepdim=True), q @ self.queue.clone().t()], dim=1) / self.T
        loss = F.cross_entropy(logits, torch.zeros(q.size(0), dtype=torch.long))
        self.enqueue(k)
        return loss


moco = MoCo()
opt = torch.optim.SGD(moco.encoder_q.parameters(), lr=0.03, momentum=0.9)
for step in range(6):
    x = torch.randn(16, 24)
    loss = moco(x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
