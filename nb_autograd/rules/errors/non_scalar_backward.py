"""backward() was called without `gradient=` on a tensor that is not a single number."""
from __future__ import annotations

from ...evidence import Evidence
from ...fixes.plan import plan
from ..base import Example, Hit

CAUSE = "non_scalar_backward"
SYMPTOM = "non_scalar"

BAD = (
    Example(code="""\
import torch
model = torch.nn.Linear(4, 1)
criterion = torch.nn.MSELoss(reduction="none")
loss = criterion(model(torch.randn(8, 4)), torch.randn(8, 1))
loss.backward()
""", line=5, fixed="""\
import torch
model = torch.nn.Linear(4, 1)
criterion = torch.nn.MSELoss(reduction="none")
loss = criterion(model(torch.randn(8, 4)), torch.randn(8, 1))
loss.mean().backward()
"""),
    Example(code="""\
import torch
x = torch.linspace(-1, 1, 5, requires_grad=True)
y = x ** 3
y.backward()
print(x.grad)
""", line=4, fixed="""\
import torch
x = torch.linspace(-1, 1, 5, requires_grad=True)
y = x ** 3
y.sum().backward()
print(x.grad)
"""),
    Example(code="""\
import torch
def train_step(model, x, y):
    err = (model(x) - y) ** 2
    err.backward()

net = torch.nn.Linear(3, 2)
for batch in range(2):
    train_step(net, torch.randn(4, 3), torch.randn(4, 2))
""", line=4, fixed="""\
import torch
def train_step(model, x, y):
    err = (model(x) - y) ** 2
    err.mean().backward()

net = torch.nn.Linear(3, 2)
for batch in range(2):
    train_step(net, torch.randn(4, 3), torch.randn(4, 2))
"""),
    Example(code="""\
import torch
w = torch.randn(3, requires_grad=True)
out = w * torch.arange(3.0)
(g,) = torch.autograd.grad(out, w)
""", line=4, fixed="""\
import torch
w = torch.randn(3, requires_grad=True)
out = w * torch.arange(3.0)
(g,) = torch.autograd.grad(out.sum(), w)
"""),
    Example(code="""\
import torch
class Tagger(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(4, 3)

    def compute_loss(self, logits, target):
        per_token = torch.nn.functional.cross_entropy(logits, target, reduction="none")
        return per_token.unsqueeze(1)

    def forward(self, x, target):
        return {"loss": self.compute_loss(self.head(x), target)}

model = Tagger()
out = model(torch.randn(6, 4), torch.randint(0, 3, (6,)))
train_loss = out["loss"]
train_loss.backward()
print(train_loss.item())
""", line=9, fixed="""\
import torch
class Tagger(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(4, 3)

    def compute_loss(self, logits, target):
        per_token = torch.nn.functional.cross_entropy(logits, target, reduction="none")
        return per_token.unsqueeze(1).mean()

    def forward(self, x, target):
        return {"loss": self.compute_loss(self.head(x), target)}

model = Tagger()
out = model(torch.randn(6, 4), torch.randint(0, 3, (6,)))
train_loss = out["loss"]
train_loss.backward()
print(train_loss.item())
"""),
)

GOOD = (
    Example(code="""\
import torch
model = torch.nn.Linear(4, 1)
loss = torch.nn.functional.mse_loss(model(torch.randn(8, 4)), torch.randn(8, 1))
loss.backward()
"""),
    Example(code="""\
import torch
x = torch.linspace(-1, 1, 5, requires_grad=True)
y = x ** 3
y.backward(gradient=torch.ones_like(y))
"""),
)

_PER_ELEMENT = ("reduction", "loss", "err", "mse", "l1", "cross_entropy", "nll", "bce", "criterion", "** 2", ".pow(2)")


def _how(ev: Evidence, names: frozenset[str], line: int) -> str:
    """`.mean()` when the tensor is a per-element loss (reduction='none', squared error), else `.sum()`."""
    made = [a for n in names for a in ev.code.assigns_to(n) if a.line <= line]
    texts = [ev.code.line_text(a.line) for a in made] + [ev.code.line_text(line)]
    texts += [ev.code.line_text(c.line) for a in made for c in ev.code.calls if a.call and c.func.endswith(a.call)
              and c.line < a.line]
    joined = " ".join(texts).lower()
    return "mean" if any(k in joined for k in _PER_ELEMENT) or "'none'" in joined or '"none"' in joined else "sum"


def _returned_unreduced(ev: Evidence, names) -> int | None:
    """The backpropagated tensor was made by a `return` in another function (a model's
    `compute_loss` returning one loss per sample), and the caller treats it as one number
    (`train_loss.item()`): reduce it where it is returned. The line, from the runtime's graph."""
    graph = ev.failure.graph if ev.failure else None
    roots = [graph.node(i) for i in ev.failure.root_ids] if graph is not None else []
    line = roots[0].line if len(roots) == 1 and roots[0] is not None else None
    if line is None or line == ev.line or not ev.code.line_text(line).startswith("return ") \
            or ev.code.function_at(line) is ev.code.function_at(ev.line):
        return None
    scalar = any(n.endswith(".item") and n[:-5] in names for n, _ in ev.code.reads)
    return line if scalar else None


def match(ev: Evidence) -> Hit | None:
    site = ev.backward_site
    if ev.line is None:
        return None
    names = site.names if site else frozenset()
    returned = _returned_unreduced(ev, names)
    if returned is not None:  # how the function computes it says whether it is a per-element loss
        function = ev.code.function_at(returned)
        text = " ".join(ev.code.line_text(l) for l in range(function.line, function.end_line + 1)).lower()
        how = "mean" if any(k in text for k in _PER_ELEMENT) else "sum"
        return Hit(CAUSE, returned, 0.9, facts=(("name", site.receiver), ("line", str(returned)), ("how", f".{how}()"),
                                                ("backward_line", str(ev.line))),
                   related=(("backward", ev.line),), variant="returned")
    how = _how(ev, names, ev.line)
    return Hit(CAUSE, ev.line, 0.9 if site else 0.5,
               facts=(("name", site.receiver if site else "?"), ("line", str(ev.line)), ("how", f".{how}()")),
               variant="per_element" if how == "mean" else "")


def plans(hit: Hit, ev: Evidence) -> list:
    first = hit.fact("how").strip(".()") or "mean"
    other = "sum" if first == "mean" else "mean"
    titles = {first: f"reduce_{first}", other: f"reduce_{other}", "gradient": "pass_gradient"}
    return list([plan("reduce_to_scalar", title=titles[how], line=hit.line, how=how)
                                           for how in (first, other, "gradient")])
