"""A leaf tensor that requires grad (a parameter) was changed in place while autograd records."""
from __future__ import annotations

import re

from ...evidence import Evidence
from ...evidence.errors import read_errors
from ...fixes.plan import plan
from ..base import Example, Hit

CAUSE = "leaf_inplace"
SYMPTOM = "leaf_inplace"

BAD = (
    Example(code="""\
import torch
w = torch.randn(3, 2, requires_grad=True)
w.mul_(0.01)
loss = (torch.randn(4, 3) @ w).sum()
loss.backward()
""", line=3, fixed="""\
import torch
w = torch.randn(3, 2, requires_grad=True)
with torch.no_grad():
    w.mul_(0.01)
loss = (torch.randn(4, 3) @ w).sum()
loss.backward()
"""),
    Example(code="""\
import torch
w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
x, y = torch.randn(10, 3), torch.randn(10)
for step in range(3):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    w -= 0.1 * w.grad
    b -= 0.1 * b.grad
    w.grad = None
    b.grad = None
""", line=8, fixed="""\
import torch
w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
x, y = torch.randn(10, 3), torch.randn(10)
for step in range(3):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
    w.grad = None
    b.grad = None
"""),
    Example(code="""\
import torch
class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)
        self.fc.bias.fill_(0.0)

    def forward(self, x):
        return self.fc(x)

head = Head()
""", line=6, fixed="""\
import torch
class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)
        with torch.no_grad():
            self.fc.bias.fill_(0.0)

    def forward(self, x):
        return self.fc(x)

head = Head()
"""),
    Example(code="""\
import torch
emb = torch.randn(5, 3, requires_grad=True)
emb[0] = 0.0
emb.sum().backward()
""", line=3, fixed="""\
import torch
emb = torch.randn(5, 3, requires_grad=True)
with torch.no_grad():
    emb[0] = 0.0
emb.sum().backward()
"""),
)

GOOD = (
    Example(code="""\
import torch
w = torch.randn(3, 2, requires_grad=True)
with torch.no_grad():
    w.mul_(0.01)
(torch.randn(4, 3) @ w).sum().backward()
"""),
    Example(code="""\
import torch
fc = torch.nn.Linear(4, 2)
torch.nn.init.zeros_(fc.bias)
fc(torch.randn(3, 4)).sum().backward()
"""),
)


def _run(ev: Evidence, ops) -> tuple[int, ...]:
    """The failing write and the in-place writes right below it (`w -= ...; b -= ...`), and the
    same writes into another module's parameters a few set-up lines further down
    (`conv.weight[:] = W` after `cconv.weight[:] = W`), when nothing between them trains."""
    lines = {op.line for op in ops}
    run = [ev.line]
    while run[-1] + 1 in lines:
        run.append(run[-1] + 1)
    attrs = {_last_attr(op.text) for op in ops if op.line in run}
    indent = ev.code.indent(ev.line)
    for op in sorted((o for o in ops if o.line > run[-1]), key=lambda o: o.line):
        between = [ev.code.line_text(l) for l in range(run[-1] + 1, op.line)]
        if _last_attr(op.text) not in attrs or any(TRAINS.search(t) for t in between) or \
                ev.code.indent(op.line) != indent or ev.code.function_at(op.line) is not ev.code.function_at(ev.line):
            break
        run.append(op.line)
    return tuple(run)


TRAINS = re.compile(r"backward|\.step\(|\bloss\b|^(for|while|if|with|def|class|else|elif|try|except)\b")


def _last_attr(statement: str) -> str:
    return _written(statement).rpartition(".")[2]


def _written(statement: str) -> str:
    """What an assignment writes into, without its last index (`model.layer[2].weight[:, pos] -= d`
    -> `model.layer[2].weight`): the leaf, as the code names it."""
    target = re.split(r"\s*(?:[-+*/@]|//|\*\*)?=(?!=)", statement, maxsplit=1)[0].strip()
    return re.sub(r"\[[^\[\]]*\]$", "", target) or "?"


def match(ev: Evidence) -> Hit | None:
    if ev.line is None:
        return None
    ops = read_errors(ev.capture.source).inplace
    here = [op for op in ops if op.line == ev.line]
    op = here[0] if here else None
    text_ = op.text if op else ev.code.line_text(ev.line)
    name = (op.target or _written(text_)) if op else "?"
    grads = f"{name}.grad" in text_ or "grad" in text_
    variant = "update" if grads and op and op.kind == "augassign" else "view" if ev.symptom.get("view") else ""
    run = _run(ev, ops)
    return Hit(CAUSE, ev.line, 0.95, facts=(("op", text_), ("name", name), ("line", str(ev.line)),
                                            ("lines", ",".join(map(str, run)))), variant=variant)


def plans(hit: Hit, ev: Evidence) -> list:
    """The writes themselves under no_grad; when they run inside a helper or a lambda the
    program's statement calls (`postprocess(opt_img[0])`, whose transform ends in `x.mul_(...)`),
    that statement instead: the helper stays as it is for the tensors it was written for."""
    run = tuple(int(x) for x in hit.fact("lines").split(",") if x)
    out = [plan("init_under_no_grad", lines=lines) for lines in (run, (hit.line,))]
    outer = ev.failure.stack_lines[0] if ev.failure and ev.failure.stack_lines else None
    if outer is not None and outer != hit.line and ev.code.function_at(outer) is None and \
            not ev.code.line_text(hit.line).startswith(("with ", "for ")):
        out.append(plan("wrap_no_grad", line=outer))
    return out
