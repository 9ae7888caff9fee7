"""recurrent_state_not_detached examples where the state is never cut or started again: a detach
whose result is thrown away (of one state, or of each in a loop over a pair, views or not), a
tagger over independent sentences that keeps its state (kept apart: the example modules stay
small)."""
from __future__ import annotations

from ..base import Example

UNRESET_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
rnn = torch.nn.RNNCell(3, 4)
opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
h = torch.zeros(2, 4)
for step in range(3):
    h.detach()
    h = rnn(torch.randn(2, 3), h)
    loss = h.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=7, note="the detach was written, but its result thrown away", fixed="""\
import torch
torch.manual_seed(0)
rnn = torch.nn.RNNCell(3, 4)
opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
h = torch.zeros(2, 4)
for step in range(3):
    h = h.detach()
    h = rnn(torch.randn(2, 3), h)
    loss = h.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
cell = torch.nn.LSTMCell(3, 4)
opt = torch.optim.SGD(cell.parameters(), lr=0.1)
state = (torch.zeros(2, 4), torch.zeros(2, 4))
for step in range(3):
    for part in state:
        part.detach()
    state = cell(torch.randn(2, 3), state)
    loss = state[0].pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=8, note="each state of a pair detached in a loop, each result thrown away: "
                   "detached in place, the pair's own tensors are cut", fixed="""\
import torch
torch.manual_seed(0)
cell = torch.nn.LSTMCell(3, 4)
opt = torch.optim.SGD(cell.parameters(), lr=0.1)
state = (torch.zeros(2, 4), torch.zeros(2, 4))
for step in range(3):
    for part in state:
        part.detach_()
    state = cell(torch.randn(2, 3), state)
    loss = state[0].pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)


class PairCell(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(7, 8)

    def forward(self, x, state):
        h, c = state
        return torch.tanh(self.lin(torch.cat([x, h + c], 1))).chunk(2, 1)


cell = PairCell()
opt = torch.optim.SGD(cell.parameters(), lr=0.1)
state = (torch.zeros(2, 4), torch.zeros(2, 4))
for step in range(3):
    for part in state:
        part.detach()
    state = cell(torch.randn(2, 3), state)
    loss = state[0].pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=20, note="the same, but the states are views (`chunk`), which `detach_()` refuses: "
                    "the state is detached where each window starts", fixed="""\
import torch
torch.manual_seed(0)


class PairCell(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(7, 8)

    def forward(self, x, state):
        h, c = state
        return torch.tanh(self.lin(torch.cat([x, h + c], 1))).chunk(2, 1)


cell = PairCell()
opt = torch.optim.SGD(cell.parameters(), lr=0.1)
state = (torch.zeros(2, 4), torch.zeros(2, 4))
for step in range(3):
    state = tuple(s.detach() for s in state)
    for part in state:
        part.detach()
    state = cell(torch.randn(2, 3), state)
    loss = state[0].pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(1)
class Tagger(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(4, 6)
        self.out = torch.nn.Linear(6, 3)
        self.hidden = self.init_hidden()

    def init_hidden(self):
        return (torch.zeros(1, 1, 6), torch.zeros(1, 1, 6))

    def forward(self, seq):
        lstm_out, self.hidden = self.lstm(seq.view(len(seq), 1, -1), self.hidden)
        return torch.log_softmax(self.out(lstm_out.view(len(seq), -1)), dim=1)

model = Tagger()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(5, 4), torch.randint(0, 3, (5,))) for _ in range(3)]
for seq, tags in data:
    model.zero_grad()
    loss = torch.nn.functional.nll_loss(model(seq), tags)
    loss.backward()
    opt.step()
""", line=14, note="a tagger run on independent sentences that never starts its state again: "
                           "start each one from the model's own init_hidden (the tutorial's loop)", fixed="""\
import torch
torch.manual_seed(1)
class Tagger(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(4, 6)
        self.out = torch.nn.Linear(6, 3)
        self.hidden = self.init_hidden()

    def init_hidden(self):
        return (torch.zeros(1, 1, 6), torch.zeros(1, 1, 6))

    def forward(self, seq):
        lstm_out, self.hidden = self.lstm(seq.view(len(seq), 1, -1), self.hidden)
        return torch.log_softmax(self.out(lstm_out.view(len(seq), -1)), dim=1)

model = Tagger()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(5, 4), torch.randint(0, 3, (5,))) for _ in range(3)]
for seq, tags in data:
    model.hidden = model.init_hidden()
    model.zero_grad()
    loss = torch.nn.functional.nll_loss(model(seq), tags)
    loss.backward()
    opt.step()
"""),
)
