"""recurrent_state_not_detached examples whose state is a container the runtime reads (a
NamedTuple of neuron variables, a dict of per-layer (h, c) pairs, an object keeping tensors in
its attributes): the fix detaches each tensor and keeps the container's kind, so the code
that reads `state.v` or `states["enc"]` still runs; and a membrane stepped by hand in a time loop
inside the batch loop (`mem = beta * mem + fc(x[t])`), cut where each batch starts so its gradient
through time stays (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

CONTAINER_BAD = (
    Example(code="""\
import collections
import torch
torch.manual_seed(0)
Neuron = collections.namedtuple("Neuron", "v i")
w = torch.nn.Parameter(torch.randn(6, 6) * 0.1)

def step(x, st):
    i = 0.8 * st.i + x @ w
    v = 0.9 * st.v + i
    return torch.sigmoid(v), Neuron(v, i)

start = Neuron(torch.zeros(2, 6), torch.zeros(2, 6))
spikes, st = step(torch.randn(2, 6), start)
spikes.sum().backward()
spikes, st = step(torch.randn(2, 6), st)
spikes.sum().backward()
""", line=13, note="a NamedTuple state handed to the next call: detached where it is read, "
                   "still a Neuron", fixed="""\
import collections
import torch
torch.manual_seed(0)
Neuron = collections.namedtuple("Neuron", "v i")
w = torch.nn.Parameter(torch.randn(6, 6) * 0.1)

def step(x, st):
    i = 0.8 * st.i + x @ w
    v = 0.9 * st.v + i
    return torch.sigmoid(v), Neuron(v, i)

start = Neuron(torch.zeros(2, 6), torch.zeros(2, 6))
spikes, st = step(torch.randn(2, 6), start)
spikes.sum().backward()
spikes, st = step(torch.randn(2, 6), st._make(s.detach() for s in st))
spikes.sum().backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
cells = torch.nn.ModuleDict({"low": torch.nn.LSTMCell(3, 4), "high": torch.nn.LSTMCell(4, 4)})
opt = torch.optim.SGD(cells.parameters(), lr=0.1)

def run(x, state):
    low = cells["low"](x, state["low"])
    high = cells["high"](low[0], state["high"])
    return high[0], {"low": low, "high": high}

state = {k: (torch.zeros(2, 4), torch.zeros(2, 4)) for k in cells}
for window in range(3):
    out, state = run(torch.randn(2, 3), state)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=13, note="a dict of (h, c) pairs carried across windows: each tensor detached, the dict "
                  "of pairs kept", fixed="""\
import torch
torch.manual_seed(0)
cells = torch.nn.ModuleDict({"low": torch.nn.LSTMCell(3, 4), "high": torch.nn.LSTMCell(4, 4)})
opt = torch.optim.SGD(cells.parameters(), lr=0.1)

def run(x, state):
    low = cells["low"](x, state["low"])
    high = cells["high"](low[0], state["high"])
    return high[0], {"low": low, "high": high}

state = {k: (torch.zeros(2, 4), torch.zeros(2, 4)) for k in cells}
for window in range(3):
    state = {k: tuple(t.detach() for t in s) for k, s in state.items()}
    out, state = run(torch.randn(2, 3), state)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)

class DecoderState:
    def __init__(self, hidden, feed):
        self.hidden, self.feed = hidden, feed

cell = torch.nn.LSTMCell(4, 4)
opt = torch.optim.SGD(cell.parameters(), lr=0.1)

def decode(x, state):
    h, c = cell(x + state.feed, state.hidden)
    return h, DecoderState((h, c), h)

state = DecoderState((torch.zeros(2, 4), torch.zeros(2, 4)), torch.zeros(2, 4))
for chunk in range(3):
    out, state = decode(torch.randn(2, 4), state)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=17, note="an object of the program's own carries the state (OpenNMT's DecoderState): "
                  "its tensors are detached, not the object", fixed="""\
import torch
torch.manual_seed(0)

class DecoderState:
    def __init__(self, hidden, feed):
        self.hidden, self.feed = hidden, feed

cell = torch.nn.LSTMCell(4, 4)
opt = torch.optim.SGD(cell.parameters(), lr=0.1)

def decode(x, state):
    h, c = cell(x + state.feed, state.hidden)
    return h, DecoderState((h, c), h)

state = DecoderState((torch.zeros(2, 4), torch.zeros(2, 4)), torch.zeros(2, 4))
for chunk in range(3):
    state.hidden, state.feed = tuple(s.detach() for s in state.hidden), state.feed.detach()
    out, state = decode(torch.randn(2, 4), state)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
fc = torch.nn.Linear(4, 3)
opt = torch.optim.Adam(fc.parameters(), 1e-3)
beta = 0.9
mem = torch.zeros(8, 3)
for batch in range(3):
    x, y = torch.randn(10, 8, 4), torch.randint(0, 3, (8,))
    spikes = 0
    for t in range(10):
        mem = beta * mem + fc(x[t])
        spikes = spikes + torch.sigmoid(mem - 1.0)
    loss = F.cross_entropy(spikes, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=12, note="a hand-written membrane carried across batches: detaching it at each time step would cut its gradient through time", fixed="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
fc = torch.nn.Linear(4, 3)
opt = torch.optim.Adam(fc.parameters(), 1e-3)
beta = 0.9
mem = torch.zeros(8, 3)
for batch in range(3):
    mem = mem.detach()
    x, y = torch.randn(10, 8, 4), torch.randint(0, 3, (8,))
    spikes = 0
    for t in range(10):
        mem = beta * mem + fc(x[t])
        spikes = spikes + torch.sigmoid(mem - 1.0)
    loss = F.cross_entropy(spikes, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
)
