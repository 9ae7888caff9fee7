"""Give the first loss a detached copy of the shared tensor(s) (`D(fake)` -> `D(fake.detach())`)
on the given lines only: its backward then stops at the copy and leaves the graph that
made the tensor (the generator's) for the second loss. Refused when a loss that is
backpropagated would keep no graph at all (every tensor it reads detached)."""
from __future__ import annotations

import libcst as cst

from .cst import detached, dotted, is_detach, load, only_small, reads_of, swap

_NO_WEIGHTS = frozenset({"torch", "F", "nn", "np", "math"})  # functions with no parameters behind them


def detach_shared(source: str, *, name: str, lines, also: tuple[str, ...] = ()) -> str | None:
    tree = load(source)
    if tree is None:
        return None
    mapping = {}
    for line in lines:
        small = only_small(tree.statement(line, cst.SimpleStatementLine), (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Expr))
        if small is None or small.value is None:
            continue
        found = reads_of(small.value, {name, *also})
        for node in found:
            mapping[node] = detached(node)
        if found and _backpropagated(small, source) and not _keeps_a_graph(swap(small.value, mapping)):
            return None  # the loss would be a constant: its backward would fail
    if not mapping:
        return None
    return swap(tree.module, mapping).code


def _backpropagated(small, source: str) -> bool:
    targets = [dotted(t.target) for t in getattr(small, "targets", ())] if isinstance(small, cst.Assign) else []
    return any(t and f"{t}.backward(" in source for t in targets)


def _keeps_a_graph(value: cst.BaseExpression) -> bool:
    """Does `value` read a tensor that is not detached, or call a module (`D(x)`, `self.net(x)`),
    whose weights carry a graph? Calls into torch's functions and tensor methods on detached
    values do not."""
    keeps = False

    class _Visit(cst.CSTVisitor):
        def visit_Call(self, n):
            nonlocal keeps
            if is_detach(n):
                return False
            name = dotted(n.func)
            if name is not None:
                keeps = keeps or name.split(".")[0] not in _NO_WEIGHTS
                for a in n.args:
                    a.value.visit(self)
                return False
            return True

        def visit_Name(self, n):
            nonlocal keeps
            keeps = keeps or n.value not in _NO_WEIGHTS

        def visit_Attribute(self, n):
            nonlocal keeps
            name = dotted(n)
            if name is None:  # `(a * b).T`: what it is taken from
                n.value.visit(self)
            else:
                keeps = keeps or name.split(".")[0] not in _NO_WEIGHTS
            return False

        def visit_Arg(self, n):
            n.value.visit(self)
            return False

    value.visit(_Visit())
    return keeps
