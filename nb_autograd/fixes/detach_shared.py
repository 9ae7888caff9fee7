"""Give the first loss a detached copy of the shared tensor(s) (`D(fake)` -> `D(fake.detach())`)
on the given lines only: its backward then stops at the copy and leaves the graph that
made the tensor (the generator's) for the second loss."""
from __future__ import annotations

import libcst as cst

from .cst import detached, load, only_small, reads_of, swap


def detach_shared(source: str, *, name: str, lines, also: tuple[str, ...] = ()) -> str | None:
    tree = load(source)
    if tree is None:
        return None
    mapping = {}
    for line in lines:
        small = only_small(tree.statement(line, cst.SimpleStatementLine), (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Expr))
        if small is None or small.value is None:
            continue
        for node in reads_of(small.value, {name, *also}):
            mapping[node] = detached(node)
    if not mapping:
        return None
    return swap(tree.module, mapping).code
