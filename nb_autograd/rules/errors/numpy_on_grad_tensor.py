"""A tensor still attached to the graph was converted to NumPy."""
from __future__ import annotations

import ast

from ...evidence import Evidence
from ...fixes.plan import plan
from ..base import Example, Hit

CAUSE = "numpy_on_grad_tensor"
SYMPTOM = "numpy_on_grad"

BAD = (
    Example(code="""\
import torch
model = torch.nn.Linear(3, 1)
pred = model(torch.randn(5, 3))
values = pred.numpy()
""", line=4, fixed="""\
import torch
model = torch.nn.Linear(3, 1)
pred = model(torch.randn(5, 3))
values = pred.detach().cpu().numpy()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(3, 1)
history = []
for epoch in range(3):
    loss = model(torch.randn(8, 3)).pow(2).mean()
    loss.backward()
    history.append(loss.numpy())
""", line=7, fixed="""\
import torch
model = torch.nn.Linear(3, 1)
history = []
for epoch in range(3):
    loss = model(torch.randn(8, 3)).pow(2).mean()
    loss.backward()
    history.append(loss.detach().cpu().numpy())
"""),
    Example(code="""\
import numpy as np
import torch
class Probe:
    def __init__(self, layer):
        self.layer = layer

    def snapshot(self):
        return np.asarray(self.layer.weight)

probe = Probe(torch.nn.Linear(2, 2))
w = probe.snapshot()
""", line=8, fixed="""\
import numpy as np
import torch
class Probe:
    def __init__(self, layer):
        self.layer = layer

    def snapshot(self):
        return np.asarray(self.layer.weight.detach().cpu().numpy())

probe = Probe(torch.nn.Linear(2, 2))
w = probe.snapshot()
"""),
    Example(code="""\
import numpy as np
import torch
net = torch.nn.Linear(1, 1)
xs = torch.linspace(0, 1, 5).unsqueeze(1)
curve = np.stack([xs.numpy(), net(xs).numpy()])
""", line=5, fixed="""\
import numpy as np
import torch
net = torch.nn.Linear(1, 1)
xs = torch.linspace(0, 1, 5).unsqueeze(1)
curve = np.stack([xs.detach().cpu().numpy(), net(xs).detach().cpu().numpy()])
"""),
    Example(code="""\
import numpy as np
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history = []
for epoch in range(3):
    train_loss = 0
    for step in range(2):
        loss = model(torch.randn(8, 3)).pow(2).mean()
        train_loss += loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    history.append(train_loss / 2)
curve = np.asarray(history, dtype=float)
""", line=10, note="a logged running loss summed from the loss tensor itself (pytorch-deep-learning#583): "
                        "fixed where it is summed, not where it is plotted", fixed="""\
import numpy as np
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history = []
for epoch in range(3):
    train_loss = 0
    for step in range(2):
        loss = model(torch.randn(8, 3)).pow(2).mean()
        train_loss += loss.detach()
        opt.zero_grad()
        loss.backward()
        opt.step()
    history.append(train_loss / 2)
curve = np.asarray(history, dtype=float)
"""),
)

GOOD = (
    Example(code="""\
import torch
model = torch.nn.Linear(3, 1)
values = model(torch.randn(5, 3)).detach().numpy()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(3, 1)
with torch.no_grad():
    values = model(torch.randn(5, 3)).numpy()
"""),
)


def _site(ev: Evidence) -> tuple[str, str, str]:
    """(variant, expression or call, argument) for the conversion written at the failing line."""
    try:
        tree = ast.parse(ev.code.line_text(ev.line))
    except SyntaxError:
        return "", ev.code.line_text(ev.line), ""
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    explicit = [c for c in calls if isinstance(c.func, ast.Attribute) and c.func.attr == "numpy"]
    if explicit:
        return "", ast.unparse(explicit[0]), ""
    for call in calls:
        for arg in call.args:
            if isinstance(arg, (ast.Name, ast.Attribute, ast.Subscript)):
                return "implicit", ast.unparse(call), ast.unparse(arg)
    return "", ev.code.line_text(ev.line), ""


def logged_totals(ev: Evidence) -> list:
    """Running totals of a backpropagated loss kept as tensors (`train_loss += loss`) and never
    backpropagated themselves: metrics that carry the graph into whatever logs or plots them."""
    losses = {n for b in ev.code.backwards for n in b.names}
    return [a for a in ev.code.assigns if a.accumulates and not a.detached and a.reads & losses
            and not set(a.targets) & losses and a.line != ev.line]


def match(ev: Evidence) -> Hit | None:
    if ev.line is None:
        return None
    variant, expr, arg = _site(ev)
    facts = (("expr", expr), ("call", expr), ("arg", arg), ("line", str(ev.line)))
    totals = logged_totals(ev) if variant == "implicit" else []
    if len(totals) == 1:  # a list of logged losses converted for a plot: each is a tensor with its graph
        total = totals[0]
        return Hit(CAUSE, total.line, 0.95, facts=(*facts[:3], ("line", str(total.line)), ("name", total.targets[0]),
                                                   ("convert_line", str(ev.line))),
                   related=(("convert", ev.line),), variant="logged_total")
    return Hit(CAUSE, ev.line, 0.95, facts=facts, variant=variant)


def plans(hit: Hit, ev: Evidence) -> list:
    if hit.variant == "logged_total":  # keep the metric a plain value where it is summed
        return [plan("detach_accumulated", line=hit.line, name=hit.fact("name")),
                plan("detach_numpy", line=int(hit.fact("convert_line")), arg=hit.fact("arg") or None)]
    return list([plan("detach_numpy", line=hit.line, arg=hit.fact("arg") or None)])
