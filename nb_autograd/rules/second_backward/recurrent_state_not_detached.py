"""An RNN/LSTM/GRU state is carried from one batch to the next without detach."""
from __future__ import annotations

import re

from ...evidence import Evidence
from ..base import Example, Hit

CAUSE = "recurrent_state_not_detached"
SYMPTOM = "second_backward"
STATE_NAME = re.compile(r"(^|\.|_)(h|c|hx|cx|hn|cn|h0|c0|hc|hidden\w*|\w*hidden|\w*state\w*|carry|memory_state)$", re.I)
RECURRENT_CALL = re.compile(r"rnn|lstm|gru|cell|recur", re.I)

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
)

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


def recurrent_states(ev: Evidence) -> list[tuple[str, int, str]]:
    """(name, line, callee) of carried names re-assigned from a call that also takes them."""
    found = []
    for a in ev.code.assigns:
        if a.call is None or a.detached:
            continue
        for name in a.targets:
            if ev.in_loop_scope(a.line, name) and name in a.call_args and ev.carried(name) and (STATE_NAME.search(name) or RECURRENT_CALL.search(a.call)):
                found.append((name, a.line, a.call))
    return found


def match(ev: Evidence) -> Hit | None:
    if ev.same_root_call or ev.freed_in_same_pass or ev.backward_site is None and not ev.loop:
        return None
    states = recurrent_states(ev)
    if ev.has_runtime_staleness:
        states = [s for s in states if ev.holder(s[0]) is None or ev.reaches_stale(s[0])]
    if not states:
        return None
    name, line, call = states[0]
    top = ev.loop.line if ev.loop else line
    return Hit(CAUSE, line, 0.88, facts=(("name", name), ("line", str(line)), ("call", call), ("loop_line", str(top))),
               related=(("backward", ev.line),))


def plans(hit: Hit, ev: Evidence) -> list:
    """Truncated BPTT: detach every state the recurrent call hands back, once per backward (at
    the top of the body that holds both the update and the backward, else right after the
    update); or, for plain tensor states, where the call reads them."""
    from ...fixes.detach_state import plain_state
    from ...fixes.plan import plan

    names = tuple(dict.fromkeys(n for n, line, _ in recurrent_states(ev) if line == hit.line)) or (hit.fact("name"),)
    paths = [h.path for h in ev.holders if h.path.split("[")[0] in names]
    as_tuple = True if any("[" in p for p in paths) else False if paths else None  # seen at run time
    where = {"loop_line": int(hit.fact("loop_line")), "line": hit.line, "names": names, "as_tuple": as_tuple,
             "backward_line": ev.backward_site.line if ev.backward_site else None}
    plans = [plan("detach_state", **where)]
    if plain_state(ev.capture.source, **where):
        plans.append(plan("add_detach", title="add_detach_read", line=hit.line, names=names, reads=True))
    return list(plans)
