"""An RNN/LSTM/GRU state is carried from one batch to the next without detach."""
from __future__ import annotations

import re

from ...evidence import Evidence
from ...evidence.errors import read_errors
from ..base import Example, Hit

CAUSE = "recurrent_state_not_detached"
SYMPTOM = "second_backward"
STATE_NAME = re.compile(r"(^|\.|_)(h|c|hx|cx|hn|cn|h0|c0|hc|hidden\w*|\w*hidden|\w*state\w*|carry|memory_state)$", re.I)
RECURRENT_CALL = re.compile(r"rnn|lstm|gru|cell|recur", re.I)
NEURON_STATE = re.compile(r"^(mem\w*|membrane\w*|v|u|vmem|spk|spike\w*|syn\w*|potential\w*|trace\w*)$", re.I)
_INITIAL = re.compile(r"(^|\.)(zeros|zeros_like|ones|ones_like|full|full_like|empty|empty_like|tensor|randn|rand|clone)$")

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
"""),)

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


def module_states(ev: Evidence) -> list[tuple[str, int, str]]:
    """(self.attr, line, holder path) for state a module keeps on itself and updates in its own
    methods (a spiking neuron's membrane `self.mem = beta * self.mem + x`), found at run time
    on a module the failing graph reaches. Its line is the update, not the initialisation."""
    found = []
    for holder in ev.holders:
        attr = holder.path.rsplit(".", 1)[-1] if "." in holder.path else ""
        if not holder.reaches_stale or "[" in attr or not (NEURON_STATE.match(attr) or STATE_NAME.search(attr)):
            continue
        updates = [a for a in ev.code.assigns_to("self." + attr) if not a.detached and not a.no_grad
                   and (a.call is None or not _INITIAL.search(a.call)) and a.reads
                   and not _in_setup(ev, a.line)]
        if updates:
            own = [a for a in updates if "self." + attr in a.reads]
            found.append(("self." + attr, own[0].line if own else updates[-1].line, holder.path))
    return found


def _in_setup(ev: Evidence, line: int) -> bool:
    """In a constructor or a reset method: where state is set up, not carried."""
    f = next((f for f in sorted(ev.code.functions, key=lambda f: -f.line) if f.line < line <= f.end_line), None)
    return f is None or f.name == "__init__" or "reset" in f.name or "detach" in f.name


def match(ev: Evidence) -> Hit | None:
    if ev.same_root_call or ev.freed_in_same_pass or ev.backward_site is None and not ev.loop:
        return None
    states = recurrent_states(ev)
    if ev.has_runtime_staleness:
        states = [s for s in states if ev.holder(s[0]) is None or ev.reaches_stale(s[0])]
    if not states and ev.has_runtime_staleness and ev.backward_site is not None:
        kept = module_states(ev)
        if kept:
            name, line, path = kept[0]
            return Hit(CAUSE, line, 0.88, facts=(("name", name), ("line", str(line)), ("holder", path),
                                                 ("model", path.split(".")[0]), ("attr", name[5:]),
                                                 ("backward_line", str(ev.backward_site.line))),
                       related=(("backward", ev.line),), variant="module_state")
    if not states:
        return None
    discarded = read_errors(ev.capture.source).discarded_detaches
    own = [f for f in ev.code.functions if f.name == "detach"]  # a state class's own detach(): `state.detach()`
    if own:  # calls that method; the tensors' detach thrown away is inside it
        discarded = tuple(d for d in discarded if any(f.line < d[0] <= f.end_line for f in own))
    if discarded:  # the program meant to detach, but threw the detached tensor away
        line, receiver = discarded[-1]
        return Hit(CAUSE, line, 0.9, facts=(("name", receiver), ("line", str(line)), ("state", states[0][0]),
                                            ("state_line", str(states[0][1])), ("call", states[0][2]),
                                            ("loop_line", str(ev.loop.line if ev.loop else line))),
                   related=(("backward", ev.line),), variant="discarded_detach")
    name, line, call = states[0]
    top = ev.loop.line if ev.loop else line
    return Hit(CAUSE, line, 0.88, facts=(("name", name), ("line", str(line)), ("call", call), ("loop_line", str(top))),
               related=(("backward", ev.line),))


def _Hit_for_state(hit: Hit) -> Hit:
    """The plain hit at the recurrent call, for the state the discarded detach was meant for."""
    facts = dict(hit.facts)
    return Hit(CAUSE, int(facts["state_line"]), hit.score, facts=(("name", facts["state"]), ("line", facts["state_line"]),
                                                                 ("call", facts["call"]), ("loop_line", facts["loop_line"])))


def plans(hit: Hit, ev: Evidence) -> list:
    """Truncated BPTT: detach every state the recurrent call hands back, once per backward (at
    the top of the body that holds both the update and the backward, else right after the
    update); or, for plain tensor states, where the call reads them."""
    from ...fixes.detach_state import plain_state
    from ...fixes.plan import plan

    if hit.variant == "discarded_detach":  # keep the detached tensor; else detach the state itself
        return [plan("assign_detach", line=hit.line)] + plans(_Hit_for_state(hit), ev)
    if hit.variant == "module_state":  # start each batch from the program's own reset, else cut the graph there
        from ...fixes.reset_module_state import reset_call

        where = {"backward_line": int(hit.fact("backward_line")), "model": hit.fact("model"), "attr": hit.fact("attr")}
        call = reset_call(ev.capture.source, where["model"])
        detach = plan("reset_module_state", title="detach_module_state", detach=True, facts={"attr": where["attr"]}, **where)
        return ([plan("reset_module_state", facts={"call": call}, **where)] if call else []) + [detach]
    names = tuple(dict.fromkeys(n for n, line, _ in recurrent_states(ev) if line == hit.line)) or (hit.fact("name"),)
    paths = [h.path for h in ev.holders if h.path.split("[")[0] in names]
    as_tuple = True if any("[" in p for p in paths) else False if paths else None  # seen at run time
    where = {"loop_line": int(hit.fact("loop_line")), "line": hit.line, "names": names, "as_tuple": as_tuple,
             "backward_line": ev.backward_site.line if ev.backward_site else None}
    wanted = [plan("detach_state", **where)]
    if plain_state(ev.capture.source, **where):
        wanted.append(plan("add_detach", title="add_detach_read", line=hit.line, names=names, reads=True))
    return wanted
