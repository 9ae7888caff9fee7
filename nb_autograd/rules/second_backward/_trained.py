"""What the program's optimizers train, read from its code: whether a value is computed from
something trained decides between freezing it (no_grad) and computing it again each step."""
from __future__ import annotations

import re

from ...evidence import Evidence

OPTIMIZER = re.compile(r"(^|\.)optim\.\w+$")


def _maximal(names) -> set[str]:
    """Drop the prefixes the reader adds (`self` for `self.model`): keep the names as written."""
    return {n for n in names if not any(m.startswith(n + ".") for m in names)}


def optimized(ev: Evidence, read_grads: bool = False) -> set[str] | None:
    """What the cell's optimizers train (`model` for `model.parameters()`, `w` for `[w]`), and
    with `read_grads` whose gradients it reads (`a.grad`: trained or inspected by hand); None
    when there is none."""
    args = [a.call_args for a in ev.code.assigns if a.call and OPTIMIZER.search(a.call)]
    graded = {n.partition(".grad")[0] for n, _ in ev.code.reads
              if read_grads and ".grad" in n and n.partition(".grad")[2][:1] in ("", ".")}
    if not args and not graded:
        return None
    named = frozenset().union(*args)
    return {n.removesuffix(".parameters") for n in _maximal(named | _collected(ev, named))} | graded


def _collected(ev: Evidence, args) -> set[str]:
    """What a name handed to the optimizer was built from (`params = [*enc.parameters(),
    *dec.parameters()]`, `params = [W1, b1]`): the modules or tensors it collects."""
    out: set[str] = set()
    for name in args:
        for a in ev.code.assigns_to(name) if name.isidentifier() else ():
            modules = {r for r in a.reads if r.endswith(".parameters")}
            plain = {r for r in a.reads if r.isidentifier()} if a.call is None else set()  # `[W1, b1]`, not `nn.Linear(...)`
            out |= modules or plain
    return out


def trained_by_optimizer(ev: Evidence, reads, read_grads: bool = False) -> bool | None:
    """Does a value computed from `reads` use something an optimizer of the cell trains (or,
    with `read_grads`, whose .grad the cell reads)? None when there is nothing to tell from."""
    trained = optimized(ev, read_grads)
    if trained is None or reads is None:
        return None
    return any(r == t or r.startswith(t + ".") for r in _maximal(reads) for t in trained)


def global_reads(ev: Evidence, made) -> frozenset[str]:
    """What `made` reads, less the locals of its function (`model` made by `clip.load` inside
    `__init__` is not the notebook's `model` the optimizer trains)."""
    f = ev.code.function_at(made.line)
    if f is None:
        return made.reads
    local = ev.code.locals_of(f)
    return frozenset(r for r in made.reads if r.split(".")[0] not in local)
