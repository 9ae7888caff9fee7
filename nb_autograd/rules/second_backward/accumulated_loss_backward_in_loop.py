"""A running loss (loss += l) keeps earlier iterations' graphs and is backpropagated each time."""
from __future__ import annotations

from ...evidence import Evidence
from ..base import Example, Hit

CAUSE = "accumulated_loss_backward_in_loop"
SYMPTOM = "second_backward"

BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 3)
images = torch.randn(5, 4)
targets = torch.randint(0, 3, (5,))
loss = 0
for j in range(len(images)):
    output = model(images[j : j + 1])
    loss += torch.nn.functional.cross_entropy(output, targets[j : j + 1])
    loss.backward()
""", line=9, fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 3)
images = torch.randn(5, 4)
targets = torch.randint(0, 3, (5,))
loss = 0
for j in range(len(images)):
    output = model(images[j : j + 1])
    loss += torch.nn.functional.cross_entropy(output, targets[j : j + 1])
loss.backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
total = torch.zeros(())
for step in range(4):
    x = torch.randn(16, 3)
    pred = net(x)
    total = total + ((pred - x.sum(1, keepdim=True)) ** 2).mean()
    opt.zero_grad()
    (total / (step + 1)).backward()
    opt.step()
""", line=9, fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
total = torch.zeros(())
for step in range(4):
    x = torch.randn(16, 3)
    pred = net(x)
    step_loss = ((pred - x.sum(1, keepdim=True)) ** 2).mean()
    total = total + step_loss.item()
    opt.zero_grad()
    step_loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def train_step(x, running):
    opt.zero_grad()
    loss = net(x).pow(2).mean()
    running = running + 0.5 * loss
    running.backward()
    opt.step()
    return running


running = torch.zeros(())
for step in range(3):
    running = train_step(torch.randn(4, 3), running)
""", line=10, fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def train_step(x, running):
    opt.zero_grad()
    loss = net(x).pow(2).mean()
    running = running + 0.5 * loss.item()
    loss.backward()
    opt.step()
    return running


running = torch.zeros(())
for step in range(3):
    running = train_step(torch.randn(4, 3), running)
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.Adam(net.parameters(), lr=0.1)
meter = {"sum": 0.0, "n": 0}
for step in range(3):
    loss = net(torch.randn(4, 3)).pow(2).mean()
    meter["sum"] += loss
    meter["n"] += 1
    avg = meter["sum"] / meter["n"]
    opt.zero_grad()
    avg.backward()
    opt.step()
""", line=8, fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(3, 1)
opt = torch.optim.Adam(net.parameters(), lr=0.1)
meter = {"sum": 0.0, "n": 0}
for step in range(3):
    loss = net(torch.randn(4, 3)).pow(2).mean()
    meter["sum"] += loss.item()
    meter["n"] += 1
    avg = meter["sum"] / meter["n"]
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
seq = torch.randn(5, 3, 2)
for epoch in range(2):
    loss = 0.0
    for t in range(4):
        loss = loss + (net(seq[t]) - seq[t + 1]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
""", line=9, fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
seq = torch.randn(5, 3, 2)
for epoch in range(2):
    loss = 0.0
    for t in range(4):
        loss = loss + (net(seq[t]) - seq[t + 1]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
net = torch.nn.Linear(3, 2)
totals = {"a": 0.0, "b": 0.0}
for step in range(3):
    out = net(torch.randn(4, 3))
    losses = {"a": out[:, 0].pow(2).mean(), "b": out[:, 1].abs().mean()}
    for k, v in losses.items():
        totals[k] = totals[k] + v
    loss = sum(totals.values())
    loss.backward()
""", line=8, fixed="""\
import torch
net = torch.nn.Linear(3, 2)
totals = {"a": 0.0, "b": 0.0}
for step in range(3):
    out = net(torch.randn(4, 3))
    losses = {"a": out[:, 0].pow(2).mean(), "b": out[:, 1].abs().mean()}
    for k, v in losses.items():
        totals[k] = totals[k] + v.item()
    loss = sum(losses.values())
    loss.backward()
"""),
    Example(code="""\
import torch
cell = torch.nn.GRUCell(2, 3)
loss = 0
for epoch in range(2):
    for seq in torch.randn(2, 3, 1, 2):
        h = torch.zeros(1, 3)
        for x in seq:
            h = cell(x, h)
            loss += h.pow(2).mean()
        loss.backward()
""", line=9, fixed="""\
import torch
cell = torch.nn.GRUCell(2, 3)
for epoch in range(2):
    for seq in torch.randn(2, 3, 1, 2):
        loss = 0
        h = torch.zeros(1, 3)
        for x in seq:
            h = cell(x, h)
            loss += h.pow(2).mean()
        loss.backward()
"""),
    Example(code="""\
import torch
net = torch.nn.Linear(3, 1)
acc = 0
for step in range(1, 5):
    acc = acc + net(torch.randn(2, 3)).pow(2).mean()
    if step % 2 == 0:
        (acc / 2).backward()
""", line=5, fixed="""\
import torch
net = torch.nn.Linear(3, 1)
acc = 0
for step in range(1, 5):
    acc = acc + net(torch.randn(2, 3)).pow(2).mean()
    if step % 2 == 0:
        (acc / 2).backward()
        acc = 0
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    x = torch.randn(3, 4)
    loss = 0
    for t in range(2):
        loss += model(x)[:, t].pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    for t in range(2):
        loss += model(x)[:, t].abs().mean()
    loss.backward()
    opt.step()
""", line=14, note="a second pass adds to the total the first pass already backpropagated", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    x = torch.randn(3, 4)
    loss = 0
    for t in range(2):
        loss += model(x)[:, t].pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    loss = 0
    for t in range(2):
        loss += model(x)[:, t].abs().mean()
    loss.backward()
    opt.step()
"""),
)

GOOD = (
    Example(code="""\
import torch
model = torch.nn.Linear(4, 3)
images = torch.randn(5, 4)
targets = torch.randint(0, 3, (5,))
loss = 0
for j in range(len(images)):
    loss += torch.nn.functional.cross_entropy(model(images[j : j + 1]), targets[j : j + 1])
loss.backward()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(4, 3)
running = 0.0
for j in range(5):
    loss = model(torch.randn(2, 4)).pow(2).mean()
    loss.backward()
    running += loss.item()
"""),
)


def _accumulators(ev: Evidence) -> dict[str, int]:
    """Names accumulated (x += ..., x = x + ...) inside the loop and carried across it; not in
    a constructor or a helper only the constructor calls (a total built once, at set-up)."""
    out: dict[str, int] = {}
    for a in ev.code.assigns:
        if a.accumulates and not a.detached and ev.in_loop_scope(a.line, a.targets[0]) and ev.carried(a.targets[0]) \
                and not _set_up_only(ev, a.line):
            out.setdefault(a.targets[0], a.line)
    return out


def _set_up_only(ev: Evidence, line: int) -> bool:
    f = ev.code.function_at(line)
    if f is None:
        return False
    if f.name == "__init__":
        return True
    sites = [c.line for c in ev.code.calls if c.func == f.name or c.func.endswith("." + f.name)]
    return bool(sites) and all(getattr(ev.code.function_at(s), "name", "") == "__init__" for s in sites)


def _added_to_after_backward(ev: Evidence) -> tuple[str, int, int, int] | None:
    """The failing backward's total was backpropagated earlier in the same pass and only added
    to since (no fresh start): (name, first addition after, its first assignment, earlier backward)."""
    site, calls = ev.backward_site, ev.freeing_calls
    if site is None or not calls or not ev.freed_in_same_pass:
        return None
    first = calls[0].line
    earlier = next((b for b in ev.code.backwards if b.line == first), None)
    name = site.receiver
    if earlier is None or earlier.receiver != name or first >= site.line:
        return None
    between = [a for a in ev.code.assigns_to(name) if first < a.line < site.line]
    init = [a.line for a in ev.code.assigns_to(name) if a.line < first and not a.accumulates]
    if not between or not all(a.accumulates for a in between) or not init:
        return None
    return name, min(a.line for a in between), max(init), first


def match(ev: Evidence) -> Hit | None:
    site = ev.backward_site
    again = _added_to_after_backward(ev)
    if again:
        name, line, init, first = again
        return Hit(CAUSE, line, 0.9, facts=(("name", name), ("line", str(line)), ("backward_line", str(site.line)),
                                            ("init_line", str(init)), ("first_line", str(first))),
                   related=(("backward", first), ("backward", site.line)), variant="added_after_backward")
    if site is None or ev.same_root_call or ev.freed_in_same_pass:
        return None
    accumulators = _accumulators(ev)
    names = set(site.names)
    for a in ev.code.assigns:  # one hop: avg = total / n; loss = sum(totals.values())
        if set(a.targets) & names and ev.in_loop_scope(a.line):
            names |= a.reads
    hit = [n for n in accumulators if n in names or n.split("[")[0] in names]
    if not hit:
        return None
    name = hit[0]
    if ev.has_runtime_staleness and ev.holder(name) is not None and not ev.reaches_stale(name):
        return None
    return Hit(CAUSE, accumulators[name], 0.9,
               facts=(("name", name), ("line", str(accumulators[name])), ("backward_line", str(site.line))),
               related=(("backward", site.line),))


def plans(hit: Hit, ev: Evidence) -> list:
    """A total reset every outer iteration sums an objective over the inner loop (time steps,
    ensemble members): one backward (and step) after that loop. A total kept across a run of
    optimizer steps is a metric: each step backpropagates its own loss, the total gets floats.
    So are totals per key. A total summing an inner loop but started outside its backward's loop,
    or backpropagated every k steps, is reset for each backward (reset_total: those shapes only).
    No retain_graph: it would backpropagate old terms again."""
    from ...fixes.plan import plan

    name, backward_line = hit.fact("name"), int(hit.fact("backward_line"))
    if hit.variant == "added_after_backward":
        return [plan("reset_before_accumulating", line=hit.line, name=name, init_line=int(hit.fact("init_line")),
                     first_line=int(hit.fact("first_line")), facts={"name": name})]
    loops = ev.code.loops_at(hit.line)
    item = plan("use_item", line=hit.line, backward_line=backward_line, name=name, facts={"name": name})
    first = [plan("use_item_per_key", title="use_item", line=hit.line, backward_line=backward_line, facts={"name": name}),
             plan("reset_total", line=hit.line, backward_line=backward_line, name=name, facts={"name": name})]
    if not loops:  # accumulated in a function the loop calls: its backward cannot leave the call
        return list([*first, item])
    inner = loops[-1]
    reset = len(loops) > 1 and any(loops[-2].contains(a.line) and not inner.contains(a.line)
                                   for a in ev.code.assigns_to(name))
    steps = any(inner.contains(c.line) and c.func.endswith(".step") for c in ev.code.calls)
    move = plan("move_backward_after_loop", line=backward_line, loop_line=inner.line, with_step=reset)
    return list([*first, *([item, move] if steps and not reset else [move, item])])
