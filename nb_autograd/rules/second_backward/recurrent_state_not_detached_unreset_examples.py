"""recurrent_state_not_detached examples where the state is never cut or started again: a detach
whose result is thrown away, a tagger over independent sentences that keeps its state (kept
apart: the example modules stay small)."""
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
"""),    Example(code="""\
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
