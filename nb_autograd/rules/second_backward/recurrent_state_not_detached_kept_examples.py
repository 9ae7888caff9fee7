"""recurrent_state_not_detached examples of a state a module keeps on itself across samples
(started again per sample, or carried on a stream) and of a state one call hands to the
next without a loop (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

KEPT_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
class LM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.i_h = torch.nn.Embedding(10, 8)
        self.h_h = torch.nn.Linear(8, 8)
        self.h_o = torch.nn.Linear(8, 10)
        self.h = 0

    def forward(self, x):
        for i in range(3):
            self.h = torch.relu(self.h_h(self.h + self.i_h(x[:, i])))
        out = self.h_o(self.h)
        return out

model = LM()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
stream = torch.randint(0, 10, (4, 13))
for k in range(3):
    x, y = stream[:, 3 * k:3 * k + 3], stream[:, 3 * k + 3]
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=13, note="a stateful language model over a continuous stream (fastbook's LMModel3): "
                           "the state is cut after the output is computed from it, never inside the unrolled steps", fixed="""\
import torch
torch.manual_seed(0)
class LM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.i_h = torch.nn.Embedding(10, 8)
        self.h_h = torch.nn.Linear(8, 8)
        self.h_o = torch.nn.Linear(8, 10)
        self.h = 0

    def forward(self, x):
        for i in range(3):
            self.h = torch.relu(self.h_h(self.h + self.i_h(x[:, i])))
        out = self.h_o(self.h)
        self.h = self.h.detach()
        return out

model = LM()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
stream = torch.randint(0, 10, (4, 13))
for k in range(3):
    x, y = stream[:, 3 * k:3 * k + 3], stream[:, 3 * k + 3]
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)


class LSTM(torch.nn.Module):
    def __init__(self, hidden_size=8):
        super().__init__()
        self.hidden_size = hidden_size
        self.lstm = torch.nn.LSTM(1, hidden_size)
        self.linear = torch.nn.Linear(hidden_size, 1)
        self.hidden_cell = (torch.zeros(1, 1, self.hidden_size), torch.zeros(1, 1, self.hidden_size))

    def forward(self, seq):
        out, self.hidden_cell = self.lstm(seq.view(len(seq), 1, -1), self.hidden_cell)
        return self.linear(out.view(len(seq), -1))[-1]


model = LSTM()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
samples = [(torch.randn(5), torch.randn(1)) for _ in range(3)]
for seq, label in samples:
    optimizer.zero_grad()
    loss = (model(seq) - label).pow(2).mean()
    loss.backward()
    optimizer.step()
""", line=14, note="a module starts its state at zeros once, then runs sample after sample: each sample starts fresh", fixed="""\
import torch
torch.manual_seed(0)


class LSTM(torch.nn.Module):
    def __init__(self, hidden_size=8):
        super().__init__()
        self.hidden_size = hidden_size
        self.lstm = torch.nn.LSTM(1, hidden_size)
        self.linear = torch.nn.Linear(hidden_size, 1)
        self.hidden_cell = (torch.zeros(1, 1, self.hidden_size), torch.zeros(1, 1, self.hidden_size))

    def forward(self, seq):
        out, self.hidden_cell = self.lstm(seq.view(len(seq), 1, -1), self.hidden_cell)
        return self.linear(out.view(len(seq), -1))[-1]


model = LSTM()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
samples = [(torch.randn(5), torch.randn(1)) for _ in range(3)]
for seq, label in samples:
    model.hidden_cell = (torch.zeros(1, 1, model.hidden_size), torch.zeros(1, 1, model.hidden_size))
    optimizer.zero_grad()
    loss = (model(seq) - label).pow(2).mean()
    loss.backward()
    optimizer.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
rnn = torch.nn.RNN(3, 4, batch_first=True)
x = torch.randn(2, 5, 3)
out, h = rnn(x)
out.sum().backward()
out, _ = rnn(x, h)
out.sum().backward()
""", line=5, note="no loop: the state of one call fed into the next call after a backward", fixed="""\
import torch
torch.manual_seed(0)
rnn = torch.nn.RNN(3, 4, batch_first=True)
x = torch.randn(2, 5, 3)
out, h = rnn(x)
out.sum().backward()
out, _ = rnn(x, h.detach())
out.sum().backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
cell = torch.nn.LSTMCell(3, 5)
head = torch.nn.Linear(5, 1)
opt = torch.optim.SGD([*cell.parameters(), *head.parameters()], lr=0.1)
hidden = (torch.zeros(2, 5), torch.zeros(2, 5))
hidden = (hidden[0].detach(), hidden[1].detach())
for batch in range(3):
    for t in range(4):
        hidden = cell(torch.randn(2, 3), hidden)
    loss = head(hidden[0]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=7, note="detached once, before the loop, instead of at each batch", fixed="""\
import torch
torch.manual_seed(0)
cell = torch.nn.LSTMCell(3, 5)
head = torch.nn.Linear(5, 1)
opt = torch.optim.SGD([*cell.parameters(), *head.parameters()], lr=0.1)
hidden = (torch.zeros(2, 5), torch.zeros(2, 5))
hidden = (hidden[0].detach(), hidden[1].detach())
for batch in range(3):
    hidden = tuple(s.detach() for s in hidden)
    for t in range(4):
        hidden = cell(torch.randn(2, 3), hidden)
    loss = head(hidden[0]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
)
