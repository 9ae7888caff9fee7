"""tensor_reused_across_iterations examples of a replay buffer written as a plain class: the
encoded states it keeps carry their graphs into later samples (kept apart: the example modules
stay small)."""
from __future__ import annotations

from ..base import Example

REPLAY_BAD = (
    Example(code="""\
import random
import torch
random.seed(0)


class Buffer:
    def __init__(self):
        self.data = []

    def push(self, s, a, r):
        self.data.append((s, a, r))

    def sample(self, n):
        s, a, r = zip(*random.sample(self.data, n))
        return torch.stack(s), torch.tensor(a), torch.tensor(r)


encoder, qnet = torch.nn.Linear(6, 4), torch.nn.Linear(4, 2)
opt = torch.optim.Adam([*encoder.parameters(), *qnet.parameters()], lr=1e-3)
buf = Buffer()
for t in range(6):
    s = encoder(torch.randn(6))
    a = int(qnet(s).argmax())
    buf.push(s, a, 1.0)
    if len(buf.data) >= 2:
        bs, ba, br = buf.sample(2)
        q = qnet(bs).gather(1, ba[:, None]).squeeze(1)
        loss = (q - br).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
""", line=24, note="an object's replay buffer keeps encoded states with their graphs", fixed="""\
import random
import torch
random.seed(0)


class Buffer:
    def __init__(self):
        self.data = []

    def push(self, s, a, r):
        self.data.append((s, a, r))

    def sample(self, n):
        s, a, r = zip(*random.sample(self.data, n))
        return torch.stack(s), torch.tensor(a), torch.tensor(r)


encoder, qnet = torch.nn.Linear(6, 4), torch.nn.Linear(4, 2)
opt = torch.optim.Adam([*encoder.parameters(), *qnet.parameters()], lr=1e-3)
buf = Buffer()
for t in range(6):
    s = encoder(torch.randn(6))
    a = int(qnet(s).argmax())
    buf.push(s.detach(), a, 1.0)
    if len(buf.data) >= 2:
        bs, ba, br = buf.sample(2)
        q = qnet(bs).gather(1, ba[:, None]).squeeze(1)
        loss = (q - br).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""),
)
