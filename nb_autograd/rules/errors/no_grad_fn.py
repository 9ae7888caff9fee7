"""backward() was called on a tensor with no grad_fn: somewhere the graph was cut, or nothing
in the computation ever required grad."""
from __future__ import annotations

from ...evidence import Evidence
from ...evidence.errors import read_errors
from ...fixes.add_requires_grad import add_requires_grad
from ...fixes.keep_in_graph import keep_in_graph
from ...fixes.line_edit import fixes_of, make_fix
from ...fixes.remove_no_grad import remove_no_grad
from ...fixes.unfreeze import unfreeze
from ...i18n import text
from ..base import Example, Hit
from ._no_grad_trace import find_cut

CAUSE = "no_grad_fn"
SYMPTOM = "no_grad_fn"

BAD = (
    Example(code="""\
import torch
model = torch.nn.Linear(4, 1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
with torch.no_grad():
    pred = model(x)
loss = torch.nn.functional.mse_loss(pred, y)
loss.backward()
""", line=4, fixed="""\
import torch
model = torch.nn.Linear(4, 1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
pred = model(x)
loss = torch.nn.functional.mse_loss(pred, y)
loss.backward()
"""),
    Example(code="""\
import torch
def features(model, x):
    h = model(x).detach()
    return h.relu()

net = torch.nn.Linear(3, 3)
loss = features(net, torch.randn(2, 3)).mean()
loss.backward()
""", line=3, fixed="""\
import torch
def features(model, x):
    h = model(x)
    return h.relu()

net = torch.nn.Linear(3, 3)
loss = features(net, torch.randn(2, 3)).mean()
loss.backward()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(3, 1)
x, y = torch.randn(6, 3), torch.randn(6, 1)
for step in range(2):
    value = ((model(x) - y) ** 2).mean().item()
    loss = torch.tensor(value)
    loss.backward()
""", line=5, fixed="""\
import torch
model = torch.nn.Linear(3, 1)
x, y = torch.randn(6, 3), torch.randn(6, 1)
for step in range(2):
    value = ((model(x) - y) ** 2).mean()
    loss = value
    loss.backward()
"""),
    Example(code="""\
import torch
backbone = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
for p in backbone.parameters():
    p.requires_grad = False
loss = backbone(torch.randn(5, 4)).pow(2).mean()
loss.backward()
""", line=4, fixed="""\
import torch
backbone = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
loss = backbone(torch.randn(5, 4)).pow(2).mean()
loss.backward()
"""),
    Example(code="""\
import torch
w = torch.randn(3, 1)
x, y = torch.randn(10, 3), torch.randn(10, 1)
for step in range(3):
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
""", line=2, fixed="""\
import torch
w = torch.randn(3, 1, requires_grad=True)
x, y = torch.randn(10, 3), torch.randn(10, 1)
for step in range(3):
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
"""),
)

GOOD = (
    Example(code="""\
import torch
model = torch.nn.Linear(4, 1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
loss = torch.nn.functional.mse_loss(model(x), y)
loss.backward()
with torch.no_grad():
    val = torch.nn.functional.mse_loss(model(x), y)
print(val.item())
"""),
    Example(code="""\
import torch
backbone = torch.nn.Linear(4, 8)
head = torch.nn.Linear(8, 2)
backbone.requires_grad_(False)
target = torch.tensor([[0.5, -0.5]])
loss = (head(backbone(torch.randn(1, 4))) - target).pow(2).mean()
loss.backward()
"""),
)


def _facts(ev: Evidence, line: int, cut: str = "", **more) -> tuple[tuple[str, str], ...]:
    site = ev.backward_site
    base = {"name": site.receiver if site else "?", "line": str(line), "backward_line": str(ev.line),
            "cut": cut, **more}
    return tuple(base.items())


def match(ev: Evidence) -> Hit | None:
    if ev.line is None:
        return None
    facts = read_errors(ev.capture.source)
    cut = find_cut(ev, facts)
    if cut is not None:
        return Hit(CAUSE, cut.line, 0.9, variant=cut.kind,
                   facts=_facts(ev, cut.line, cut.text, function=cut.function,
                                edits=",".join(map(str, cut.edit_lines))),
                   related=(("backward", ev.line),))
    if facts.freezes:
        line, _ = facts.freezes[0]
        return Hit(CAUSE, line, 0.8, variant="frozen", facts=_facts(ev, line, ev.code.line_text(line)))
    wanted = [(line, name) for line, name, given in facts.leaves if not given and name in facts.grad_reads]
    if wanted:
        line, name = wanted[0]
        return Hit(CAUSE, line, 0.8, variant="requires_grad_missing", facts=_facts(ev, line, leaf=name))
    return Hit(CAUSE, ev.line, 0.4, variant="unknown", facts=_facts(ev, ev.line))


def fixes(hit: Hit, ev: Evidence, lang: str):
    source, line = ev.capture.source, hit.line
    title = lambda key: text(f"fix.{key}", lang)
    if hit.variant == "no_grad":
        return fixes_of(make_fix("remove_no_grad", title("remove_no_grad"), source, remove_no_grad(source, line)))
    if hit.variant == "frozen":
        return fixes_of(make_fix("unfreeze", title("unfreeze"), source, unfreeze(source, line)))
    if hit.variant == "requires_grad_missing":
        return fixes_of(make_fix("add_requires_grad", title("add_requires_grad"), source, add_requires_grad(source, line)))
    edits = tuple(int(x) for x in hit.fact("edits").split(",") if x)
    if edits:
        return fixes_of(make_fix("keep_in_graph", title("keep_in_graph"), source, keep_in_graph(source, edits)))
    return ()
