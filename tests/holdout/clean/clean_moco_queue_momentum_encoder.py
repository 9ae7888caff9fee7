import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MoCo(nn.Module):
    def __init__(self, in_dim=16, dim=8, queue_size=32, tau=0.2, m=0.99):
        super().__init__()
        self.encoder_q = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.tau, self.m, self.queue_size = tau, m, queue_size
        self.register_buffer("queue", F.normalize(torch.randn(queue_size, dim), dim=1))

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    def forward(self, x):
        q = F.normalize(self.encoder_q(x + 0.1 * torch.randn_like(x)), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(x + 0.1 * torch.randn_like(x)), dim=1)
        logits = torch.cat([(q * k).sum(1, keepdim=True), q @ self.queue.t()], dim=1) / self.tau
        loss = F.cross_entropy(logits, torch.zeros(x.size(0), dtype=torch.long))
        self.queue = torch.cat([k, self.queue], dim=0)[: self.queue_size]
        return loss


learner = MoCo()
optimizer = torch.optim.SGD(learner.encoder_q.parameters(), lr=0.05, momentum=0.9)
for step in range(4):
    loss = learner(torch.randn(8, 16))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
