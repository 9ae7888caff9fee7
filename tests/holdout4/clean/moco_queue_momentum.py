import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
encoder_q = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
encoder_k = copy.deepcopy(encoder_q)
for p in encoder_k.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(encoder_q.parameters(), lr=0.03, momentum=0.9)
state = {"queue": F.normalize(torch.randn(32, 8), dim=1), "step": 0}
m, tau = 0.99, 0.1

for step in range(8):
    x = torch.randn(8, 16)
    q = F.normalize(encoder_q(x + 0.1 * torch.randn_like(x)), dim=1)
    with torch.no_grad():
        for pq, pk in zip(encoder_q.parameters(), encoder_k.parameters()):
            pk.mul_(m).add_(pq.detach(), alpha=1 - m)
        k = F.normalize(encoder_k(x + 0.1 * torch.randn_like(x)), dim=1)
    logits = torch.cat([(q * k).sum(1, keepdim=True), q @ state["queue"].t()], dim=1) / tau
    loss = F.cross_entropy(logits, torch.zeros(8, dtype=torch.long))
    opt.zero_grad()
    loss.backward()
    opt.step()
    state["queue"] = torch.cat([k, state["queue"]], dim=0)[:32]   # k has no graph
    state["step"] += 1
    print(step, round(loss.item(), 4))
