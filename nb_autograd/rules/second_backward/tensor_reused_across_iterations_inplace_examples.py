"""tensor_reused_across_iterations examples where the graph enters a tensor through in-place
writes: a module's buffer filled each call (`self.sums.index_add_(...)`, nvalchemi-toolkit#82),
a table written row by row with each step's outputs (JODIE's embeddings, jodie#13), and a KV
cache written slice by slice (llama-cookbook#247). The fix detaches the tensor after it was read,
or, for the cache, before this call writes it (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

INPLACE_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)

class Pool(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(3, 1)
        self.sums = None

    def forward(self, x, groups, n):
        if self.sums is None:
            self.sums = torch.zeros(n)
        self.sums.zero_()
        self.sums.index_add_(0, groups, self.proj(x).squeeze(1))
        pooled = self.sums.clone()
        return pooled

pool = Pool()
opt = torch.optim.SGD(pool.parameters(), lr=0.1)
groups = torch.tensor([0, 1, 1, 0])
for step in range(3):
    loss = pool(torch.randn(4, 3), groups, 2).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=14, note="a buffer made once and filled in place on every call: cut loose after it is read", fixed="""\
import torch
torch.manual_seed(0)

class Pool(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(3, 1)
        self.sums = None

    def forward(self, x, groups, n):
        if self.sums is None:
            self.sums = torch.zeros(n)
        self.sums.zero_()
        self.sums.index_add_(0, groups, self.proj(x).squeeze(1))
        pooled = self.sums.clone()
        self.sums.detach_()
        return pooled

pool = Pool()
opt = torch.optim.SGD(pool.parameters(), lr=0.1)
groups = torch.tensor([0, 1, 1, 0])
for step in range(3):
    loss = pool(torch.randn(4, 3), groups, 2).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(4, 4)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
table = torch.zeros(5, 4)
for batch in range(3):
    loss = 0
    for rows in (torch.tensor([0, 1]), torch.tensor([2, 1])):
        new = torch.tanh(net(torch.randn(2, 4)) + table[rows])
        loss = loss + new.pow(2).mean()
        table[rows] = new
    loss.backward()
    opt.step()
    opt.zero_grad()
    loss = 0
""", line=11, note="a table written row by row, read again by the next batch: detached in place after the step", fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(4, 4)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
table = torch.zeros(5, 4)
for batch in range(3):
    loss = 0
    for rows in (torch.tensor([0, 1]), torch.tensor([2, 1])):
        new = torch.tanh(net(torch.randn(2, 4)) + table[rows])
        loss = loss + new.pow(2).mean()
        table[rows] = new
    loss.backward()
    opt.step()
    opt.zero_grad()
    table.detach_()
    loss = 0
"""),
    Example(code="""\
import torch
torch.manual_seed(0)

class Attention(torch.nn.Module):
    def __init__(self, dim, max_len):
        super().__init__()
        self.wk, self.wv = torch.nn.Linear(dim, dim), torch.nn.Linear(dim, dim)
        self.cache_k = torch.zeros(2, max_len, dim)
        self.cache_v = torch.zeros(2, max_len, dim)

    def forward(self, x, start):
        n = x.shape[1]
        self.cache_k[:, start:start + n] = self.wk(x)
        self.cache_v[:, start:start + n] = self.wv(x)
        keys, values = self.cache_k[:, :start + n], self.cache_v[:, :start + n]
        return (x @ keys.transpose(1, 2)).softmax(-1) @ values

attn = Attention(4, 8)
opt = torch.optim.SGD(attn.parameters(), lr=0.1)
for step in range(3):
    loss = attn(torch.randn(2, 8, 4), 0).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=13, note="a KV cache written slice by slice each call (llama-cookbook#247): each call starts "
                  "from the buffers' values, so this call's keys keep their gradient", fixed="""\
import torch
torch.manual_seed(0)

class Attention(torch.nn.Module):
    def __init__(self, dim, max_len):
        super().__init__()
        self.wk, self.wv = torch.nn.Linear(dim, dim), torch.nn.Linear(dim, dim)
        self.cache_k = torch.zeros(2, max_len, dim)
        self.cache_v = torch.zeros(2, max_len, dim)

    def forward(self, x, start):
        n = x.shape[1]
        self.cache_k = self.cache_k.detach()
        self.cache_v = self.cache_v.detach()
        self.cache_k[:, start:start + n] = self.wk(x)
        self.cache_v[:, start:start + n] = self.wv(x)
        keys, values = self.cache_k[:, :start + n], self.cache_v[:, :start + n]
        return (x @ keys.transpose(1, 2)).softmax(-1) @ values

attn = Attention(4, 8)
opt = torch.optim.SGD(attn.parameters(), lr=0.1)
for step in range(3):
    loss = attn(torch.randn(2, 8, 4), 0).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
)
