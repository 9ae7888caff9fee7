"""Runnable examples for recurrent_state_not_detached (kept apart: the rule module stays small)."""
from __future__ import annotations

from ..base import Example
from .recurrent_state_not_detached_container_examples import CONTAINER_BAD
from .recurrent_state_not_detached_kept_examples import KEPT_BAD
from .recurrent_state_not_detached_unreset_examples import UNRESET_BAD

BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
rnn = torch.nn.GRU(4, 8, batch_first=True)
head = torch.nn.Linear(8, 1)
opt = torch.optim.SGD([*rnn.parameters(), *head.parameters()], lr=0.1)
hidden = torch.zeros(1, 2, 8)
for batch in range(3):
    x = torch.randn(2, 5, 4)
    out, hidden = rnn(x, hidden)
    loss = head(out).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=9, fixed="""\
import torch
torch.manual_seed(0)
rnn = torch.nn.GRU(4, 8, batch_first=True)
head = torch.nn.Linear(8, 1)
opt = torch.optim.SGD([*rnn.parameters(), *head.parameters()], lr=0.1)
hidden = torch.zeros(1, 2, 8)
for batch in range(3):
    hidden = hidden.detach()
    x = torch.randn(2, 5, 4)
    out, hidden = rnn(x, hidden)
    loss = head(out).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
cell = torch.nn.LSTMCell(3, 5)
h, c = torch.zeros(1, 5), torch.zeros(1, 5)
for t in range(4):
    h, c = cell(torch.randn(1, 3), (h, c))
    loss = h.pow(2).sum()
    loss.backward()
""", line=6, fixed="""\
import torch
torch.manual_seed(0)
cell = torch.nn.LSTMCell(3, 5)
h, c = torch.zeros(1, 5), torch.zeros(1, 5)
for t in range(4):
    h, c = h.detach(), c.detach()
    h, c = cell(torch.randn(1, 3), (h, c))
    loss = h.pow(2).sum()
    loss.backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)


class Stream(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = torch.nn.GRU(2, 4, batch_first=True)
        self.hidden = None

    def forward(self, x):
        out, self.hidden = self.gru(x, self.hidden)
        return out.sum()


model = Stream()
for step in range(3):
    model(torch.randn(1, 3, 2)).backward()
""", line=12, fixed="""\
import torch
torch.manual_seed(0)


class Stream(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = torch.nn.GRU(2, 4, batch_first=True)
        self.hidden = None

    def forward(self, x):
        out, self.hidden = self.gru(x, self.hidden)
        self.hidden = self.hidden.detach()
        return out.sum()


model = Stream()
for step in range(3):
    model(torch.randn(1, 3, 2)).backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
cell = torch.nn.LSTMCell(2, 3)


def train_chunk(chunk, h, c):
    loss = 0.0
    for x in chunk:
        h, c = cell(x, (h, c))
        loss = loss + h.pow(2).mean()
    loss.backward()
    return h, c


h, c = torch.zeros(1, 3), torch.zeros(1, 3)
for chunk in torch.randn(9, 1, 2).split(3):
    h, c = train_chunk(chunk, h, c)
""", line=9, fixed="""\
import torch
torch.manual_seed(0)
cell = torch.nn.LSTMCell(2, 3)


def train_chunk(chunk, h, c):
    h, c = h.detach(), c.detach()
    loss = 0.0
    for x in chunk:
        h, c = cell(x, (h, c))
        loss = loss + h.pow(2).mean()
    loss.backward()
    return h, c


h, c = torch.zeros(1, 3), torch.zeros(1, 3)
for chunk in torch.randn(9, 1, 2).split(3):
    h, c = train_chunk(chunk, h, c)
"""),
    Example(code="""\
import torch
cell = torch.nn.GRUCell(2, 3)
h = torch.zeros(1, 3)
losses = []
for t in range(6):
    h = cell(torch.randn(1, 2), h)
    losses.append(h.pow(2).mean())
    if (t + 1) % 3 == 0:
        torch.stack(losses).mean().backward()
        losses = []
""", line=6, fixed="""\
import torch
cell = torch.nn.GRUCell(2, 3)
h = torch.zeros(1, 3)
losses = []
for t in range(6):
    h = cell(torch.randn(1, 2), h)
    losses.append(h.pow(2).mean())
    if (t + 1) % 3 == 0:
        torch.stack(losses).mean().backward()
        losses = []
        h = h.detach()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
lstm = torch.nn.LSTM(2, 3, batch_first=True)
opt = torch.optim.SGD(lstm.parameters(), lr=0.1)
data = torch.randn(1, 8, 2)
for epoch in range(2):
    state = None
    for i in range(0, 8, 4):
        out, state = lstm(data[:, i:i + 4], state)
        loss = out.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
""", line=9, note="the (h, c) state starts as None each epoch", fixed="""\
import torch
torch.manual_seed(0)
lstm = torch.nn.LSTM(2, 3, batch_first=True)
opt = torch.optim.SGD(lstm.parameters(), lr=0.1)
data = torch.randn(1, 8, 2)
for epoch in range(2):
    state = None
    for i in range(0, 8, 4):
        if state is not None:
            state = tuple(s.detach() for s in state)
        out, state = lstm(data[:, i:i + 4], state)
        loss = out.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)


class Leaky(torch.nn.Module):
    def __init__(self, beta):
        super().__init__()
        self.beta = beta
        self.mem = None

    def forward(self, x):
        if self.mem is None:
            self.mem = torch.zeros_like(x)
        self.mem = self.beta * self.mem + x
        return torch.sigmoid(self.mem)


def reset(net):
    for m in net.modules():
        if isinstance(m, Leaky):
            m.mem = None


net = torch.nn.Sequential(torch.nn.Linear(3, 4), Leaky(0.9))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(2, 3)
    loss = (net(x) + net(x)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=14, note="a spiking neuron keeps its membrane on itself; the program's own reset is called", fixed="""\
import torch
torch.manual_seed(0)


class Leaky(torch.nn.Module):
    def __init__(self, beta):
        super().__init__()
        self.beta = beta
        self.mem = None

    def forward(self, x):
        if self.mem is None:
            self.mem = torch.zeros_like(x)
        self.mem = self.beta * self.mem + x
        return torch.sigmoid(self.mem)


def reset(net):
    for m in net.modules():
        if isinstance(m, Leaky):
            m.mem = None


net = torch.nn.Sequential(torch.nn.Linear(3, 4), Leaky(0.9))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(2, 3)
    loss = (net(x) + net(x)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    reset(net)
"""),

) + UNRESET_BAD + KEPT_BAD + CONTAINER_BAD

GOOD = (
    Example(code="""\
import torch
rnn = torch.nn.GRU(4, 8, batch_first=True)
hidden = torch.zeros(1, 2, 8)
for batch in range(3):
    hidden = hidden.detach()
    out, hidden = rnn(torch.randn(2, 5, 4), hidden)
    out.pow(2).mean().backward()
"""),
    Example(code="""\
import torch
cell = torch.nn.LSTMCell(3, 5)
h, c = torch.zeros(1, 5), torch.zeros(1, 5)
loss = 0
for t in range(4):
    h, c = cell(torch.randn(1, 3), (h, c))
    loss = loss + h.pow(2).sum()
loss.backward()
"""),
)
