"""Runnable examples for tensor_reused_across_iterations (kept apart: the rule module stays small)."""
from __future__ import annotations

from ..base import Example
from .tensor_reused_across_iterations_inplace_examples import INPLACE_BAD
from .tensor_reused_across_iterations_history_examples import HISTORY_BAD
from .tensor_reused_across_iterations_kept_examples import KEPT_BAD
from .tensor_reused_across_iterations_replay_examples import REPLAY_BAD

BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
a = torch.tensor([1.0, 2.0, 3.0])
t = torch.tensor([1.0])
fc1 = torch.nn.Linear(3, 5)
fc2 = torch.nn.Linear(5, 1)
loss_func = torch.nn.MSELoss()
sgd = torch.optim.SGD(list(fc1.parameters()) + list(fc2.parameters()), lr=0.01)
temp = []
for i in range(10):
    h = fc1(a)
    out = fc2(h)
    temp.append(h)
    if i != 0:
        out = out + temp[0].mean()
    loss = loss_func(out, t)
    sgd.zero_grad()
    loss.backward()
    sgd.step()
""", line=13, fixed="""\
import torch
torch.manual_seed(0)
a = torch.tensor([1.0, 2.0, 3.0])
t = torch.tensor([1.0])
fc1 = torch.nn.Linear(3, 5)
fc2 = torch.nn.Linear(5, 1)
loss_func = torch.nn.MSELoss()
sgd = torch.optim.SGD(list(fc1.parameters()) + list(fc2.parameters()), lr=0.01)
temp = []
for i in range(10):
    h = fc1(a)
    out = fc2(h)
    temp.append(h.detach())
    if i != 0:
        out = out + temp[0].mean()
    loss = loss_func(out, t)
    sgd.zero_grad()
    loss.backward()
    sgd.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 3)
prev_output = torch.zeros(3)
for step in range(3):
    output = net(torch.randn(3))
    loss = (output - prev_output).pow(2).sum()
    loss.backward()
    prev_output = output
""", line=9, fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 3)
prev_output = torch.zeros(3)
for step in range(3):
    output = net(torch.randn(3))
    loss = (output - prev_output).pow(2).sum()
    loss.backward()
    prev_output = output.detach()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
encoder = torch.nn.Linear(4, 4)
ema = torch.zeros(4)
for step in range(3):
    feat = encoder(torch.randn(4))
    ema = 0.9 * ema + 0.1 * feat
    loss = (feat - ema).pow(2).sum()
    loss.backward()
""", line=7, fixed="""\
import torch
torch.manual_seed(0)
encoder = torch.nn.Linear(4, 4)
ema = torch.zeros(4)
for step in range(3):
    feat = encoder(torch.randn(4))
    ema = 0.9 * ema.detach() + 0.1 * feat
    loss = (feat - ema).pow(2).sum()
    loss.backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
enc = torch.nn.Linear(2, 3)
opt = torch.optim.SGD(enc.parameters(), lr=0.1)
feats = {k: torch.randn(1, 2) for k in "abc"}
cache = {}
for u, v in [("a", "b"), ("b", "c"), ("c", "a")]:
    for k in (u, v):
        if k not in cache:
            cache[k] = enc(feats[k])
    loss = (cache[u] * cache[v]).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=10, fixed="""\
import torch
torch.manual_seed(0)
enc = torch.nn.Linear(2, 3)
opt = torch.optim.SGD(enc.parameters(), lr=0.1)
feats = {k: torch.randn(1, 2) for k in "abc"}
cache = {}
for u, v in [("a", "b"), ("b", "c"), ("c", "a")]:
    for k in (u, v):
        cache[k] = enc(feats[k])
    loss = (cache[u] * cache[v]).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
enc = torch.nn.Linear(2, 2)
bank = torch.zeros(4, 2)
for step in range(3):
    key = enc(torch.randn(1, 2))
    loss = (key @ bank.t()).sum() + key.pow(2).sum()
    bank = torch.cat([key, bank])[:4]
    loss.backward()
""", line=8, fixed="""\
import torch
torch.manual_seed(0)
enc = torch.nn.Linear(2, 2)
bank = torch.zeros(4, 2)
for step in range(3):
    key = enc(torch.randn(1, 2))
    loss = (key @ bank.t()).sum() + key.pow(2).sum()
    bank = torch.cat([key, bank])[:4].detach()
    loss.backward()
"""),
    Example(code="""\
import torch
net = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
log_probs = []
for episode in range(3):
    for t in range(2):
        log_probs.append(net(torch.randn(2)).log_softmax(-1)[0])
    loss = -torch.stack(log_probs).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=7, fixed="""\
import torch
net = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
log_probs = []
for episode in range(3):
    for t in range(2):
        log_probs.append(net(torch.randn(2)).log_softmax(-1)[0])
    loss = -torch.stack(log_probs).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    del log_probs[:]
"""),
    Example(code="""\
import torch
g = torch.nn.Linear(2, 2)
d = torch.nn.Linear(2, 1)
opt_d = torch.optim.SGD(d.parameters(), lr=0.1)
opt_g = torch.optim.SGD(g.parameters(), lr=0.1)
pool = []
for it in range(3):
    fake = g(torch.randn(4, 2))
    d_loss = d(torch.cat([fake.detach()] + pool[-1:])).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = -d(fake).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    pool.append(fake)
""", line=17, fixed="""\
import torch
g = torch.nn.Linear(2, 2)
d = torch.nn.Linear(2, 1)
opt_d = torch.optim.SGD(d.parameters(), lr=0.1)
opt_g = torch.optim.SGD(g.parameters(), lr=0.1)
pool = []
for it in range(3):
    fake = g(torch.randn(4, 2))
    d_loss = d(torch.cat([fake.detach()] + pool[-1:])).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = -d(fake).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    pool.append(fake.detach())
"""),

) + KEPT_BAD + REPLAY_BAD + INPLACE_BAD + HISTORY_BAD

GOOD = (
    Example(code="""\
import torch
net = torch.nn.Linear(3, 3)
prev_output = torch.zeros(3)
for step in range(3):
    output = net(torch.randn(3))
    loss = (output - prev_output).pow(2).sum()
    loss.backward()
    prev_output = output.detach()
"""),
    Example(code="""\
import torch
net = torch.nn.Linear(3, 1)
history = []
for step in range(3):
    loss = net(torch.randn(3)).pow(2).sum()
    loss.backward()
    history.append(loss.item())
"""),
    Example(code="""\
import torch


class Rotary(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.freqs = torch.nn.Parameter(torch.arange(dim) / dim)
        self.register_buffer("cached", None, persistent=False)

    def forward(self, t):
        if self.cached is not None:
            return self.cached
        freqs = t[:, None] * self.freqs
        self.register_buffer("cached", freqs.detach(), persistent=False)
        return freqs


rot, head = Rotary(4), torch.nn.Linear(4, 1)
opt = torch.optim.SGD([*rot.parameters(), *head.parameters()], lr=0.1)
for step in range(2):
    loss = head(rot(torch.arange(3.0)).sin()).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
)
