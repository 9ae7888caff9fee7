"""tensor_reused_across_iterations examples of lists that live outside the training loop: a
replay buffer written as a plain class, whose encoded states carry their graphs into later
samples; a forward hook's list that a regulariser reads whole, never emptied, updated on one
notebook-style line (kept apart: the example modules stay small)."""
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
    Example(code="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
feats = []
model[1].register_forward_hook(lambda m, i, o: feats.append(o))
for step in range(4):
    x, y = torch.randn(16, 4), torch.randint(0, 2, (16,))
    out = model(x)
    sparsity = torch.stack([f.abs().mean() for f in feats]).sum()
    loss = F.cross_entropy(out, y) + 0.01 * sparsity
    opt.zero_grad(); loss.backward(); opt.step()
""", line=7, note="a hook's list read whole by the loss is emptied after each update: detaching would leave the regulariser no gradient", fixed="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
feats = []
model[1].register_forward_hook(lambda m, i, o: feats.append(o))
for step in range(4):
    x, y = torch.randn(16, 4), torch.randint(0, 2, (16,))
    out = model(x)
    sparsity = torch.stack([f.abs().mean() for f in feats]).sum()
    loss = F.cross_entropy(out, y) + 0.01 * sparsity
    opt.zero_grad(); loss.backward(); opt.step()
    del feats[:]
"""),
)
