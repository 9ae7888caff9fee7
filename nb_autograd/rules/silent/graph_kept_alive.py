"""Graphs of earlier iterations are kept alive (a running loss without .item(), outputs
appended to a list, retain_graph=True on a growing total), so memory grows every iteration."""
from __future__ import annotations

from ...capture.silent import GraphGrowth, KeptGraph
from ...evidence import Evidence
from ..base import Example, Hit

CAUSE = "graph_kept_alive"
SYMPTOM = "silent"

BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
total_loss = 0
for step in range(5):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total_loss += loss
print(total_loss.item() / 5)
""", line=11, note="running loss kept as a tensor", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
total_loss = 0
for step in range(5):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total_loss += loss.detach()
print(total_loss.item() / 5)
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
outputs = []
for step in range(5):
    out = model(torch.randn(16, 8))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    outputs.append(out)
""", line=12, note="outputs appended with their graphs", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
outputs = []
for step in range(5):
    out = model(torch.randn(16, 8))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    outputs.append(out.detach())
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
x = torch.randn(16, 8)
total = torch.zeros(())
for step in range(5):
    loss = (model(x) - step).pow(2).mean()
    total = total + loss
    model.zero_grad()
    total.backward(retain_graph=True)
""", line=8, note="retain_graph=True on a growing total"),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
def train(steps):
    total_loss = 0
    for step in range(steps):
        loss = model(torch.randn(16, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total_loss += loss
    return total_loss.item()
train(6)
""", line=12, note="inside a function: seen while it runs", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
def train(steps):
    total_loss = 0
    for step in range(steps):
        loss = model(torch.randn(16, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total_loss += loss.detach()
    return total_loss.item()
train(6)
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
cell = torch.nn.RNNCell(4, 8)
h = torch.zeros(2, 8)
for t in range(6):
    h = cell(torch.randn(2, 4), h)
    loss = h.pow(2).mean()
    cell.zero_grad()
    loss.backward(retain_graph=True)
""", line=6, note="recurrent state kept with retain_graph=True"),
)

GOOD = (
    Example(code="""\
import torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
total_loss = 0.0
outputs = []
for step in range(5):
    out = model(torch.randn(16, 8))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total_loss += loss.item()
    outputs.append(out.detach())
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(8, 1)
losses = []
for step in range(5):
    losses.append(model(torch.randn(16, 8)).pow(2).mean())
total = torch.stack(losses).sum()
total.backward()
"""),
    Example(code="""\
import torch
cell = torch.nn.RNNCell(4, 8)
opt = torch.optim.SGD(cell.parameters(), lr=0.01)
for batch in range(4):
    h = torch.zeros(2, 8)
    for t in range(5):
        h = cell(torch.randn(2, 4), h)
    opt.zero_grad()
    h.pow(2).mean().backward()
    opt.step()
""", note="full backpropagation through time inside each step"),
)


def _size(nbytes: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if nbytes < 1024 or unit == "GB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    return str(nbytes)


def _holder_line(ev: Evidence, name: str, fallback: int | None) -> tuple[int | None, str]:
    """Where the code puts the graph into `name`: an accumulation, an append, an assignment."""
    loops = lambda line: bool(ev.code.loops_at(line))  # noqa: E731
    adds = [a.line for a in ev.code.assigns_to(name) if a.accumulates and not a.detached and loops(a.line)]
    if adds:
        return adds[-1], "accumulated"
    stores = [s.line for s in ev.code.stores if s.container == name and not s.detached and loops(s.line)]
    if stores:
        return stores[-1], "stored"
    sets = [a.line for a in ev.code.assigns_to(name) if loops(a.line) and not a.detached]
    return (sets[-1] if sets else fallback), "variable"


def _growth_name(ev: Evidence, growth: GraphGrowth) -> tuple[str, int | None, str]:
    line = growth.lines[-1] if growth.lines else None
    site = next((b for b in ev.code.backwards if b.line == line), None)
    names = sorted(site.names, key=len) if site else []
    for name in names:
        held, variant = _holder_line(ev, name, None)
        if held is not None and variant == "accumulated":
            return name, held, "retained"
    loop = ev.code.loops_at(line)[-1] if line and ev.code.loops_at(line) else None
    carried = [a for a in ev.code.assigns if loop and loop.contains(a.line) and not a.detached
               for n in a.targets if ev.code.carried_in(loop, n)]
    if carried:
        return carried[0].targets[0], carried[0].line, "retained"
    return (site.receiver if site else "?"), line, "retained"


def _feeds_a_backward(ev: Evidence, name: str) -> bool:
    """The list is kept on purpose: a later loss made from it is backpropagated
    (`meta_loss = torch.stack(task_losses).mean(); meta_loss.backward()`), which frees it."""
    made = {name}
    for a in sorted(ev.code.assigns, key=lambda a: a.line):
        if a.reads & made:
            made |= set(a.targets)
    return any(b.names & made for b in ev.code.backwards)


def _backward_after_its_loop(ev: Evidence, name: str) -> bool:
    """Filled in a loop that a later backward in the same function follows (MAML's task
    predictions beside its task losses): the graphs live until that backward, then go."""
    lines = [s.line for s in ev.code.stores if s.container == name] + [a.line for a in ev.code.assigns_to(name)]
    lines = [line for line in lines if ev.code.loops_at(line)]
    for line in lines:
        loops = ev.code.loops_at(line)
        loop = loops[-1]
        function = ev.code.function_at(line)
        end = function.end_line if function else len(ev.code.lines)
        if not any(loop.end_line < b.line <= end and not b.retain_graph for b in ev.code.backwards):
            return False
    return bool(lines)


def match(ev: Evidence) -> Hit | None:
    kept = [o for o in ev.capture.silent if isinstance(o, KeptGraph)]
    growth = [o for o in ev.capture.silent if isinstance(o, GraphGrowth)]
    kept = [k for k in kept if not _feeds_a_backward(ev, k.path) and not _backward_after_its_loop(ev, k.path)]
    if kept:
        k = kept[0]
        line, variant = _holder_line(ev, k.path, min(k.lines))
        facts = (("name", k.path), ("nodes", str(k.nodes)), ("iterations", str(k.iterations)),
                 ("bytes", _size(k.live_bytes)))
    elif growth:
        g = growth[0]
        name, line, variant = _growth_name(ev, g)
        facts = (("name", name), ("nodes", f"{g.nodes[0]} -> {g.nodes[-1]}"), ("iterations", str(g.calls)),
                 ("bytes", f"{_size(g.live_bytes[0])} -> {_size(g.live_bytes[-1])}"),
                 ("backward_line", str(g.lines[-1])))
    else:
        return None
    return Hit(CAUSE, line, 0.8, facts=facts + (("line", str(line)),), variant=variant)


def plans(hit: Hit, ev: Evidence) -> list:
    """Keep the value, not the graph: a running total adds each loss detached; a list or a
    variable that outlives the step keeps a detached copy. A total that is itself
    backpropagated with retain_graph gets no automatic fix (which graph to keep is a choice)."""
    from ...fixes.plan import plan

    name = hit.fact("name")
    if hit.line is None or "." in name and "[" in name:
        return []
    if hit.variant == "accumulated":
        return [plan("detach_accumulated", line=hit.line, name=name, facts={"name": name})]
    if hit.variant in ("stored", "variable"):
        return [plan("add_detach", line=hit.line, names=(name,))]
    return []
