"""A `with` block around a whole training loop whose context must last one step only
(`with parametrize.cached():` reuses one differentiable weight for as long as it lasts, so the
second step backpropagates through the first step's freed graph): enter it in each iteration
instead, around the loop's body (torch#71062)."""
from __future__ import annotations

import libcst as cst

from .cst import load


def with_per_iteration(source: str, *, line: int) -> str | None:
    """`with W:` at `line` whose body is one `for`/`while` loop -> the loop, its body under `with W:`."""
    tree = load(source)
    stmt = tree and tree.statement(line, cst.With)
    if stmt is None or not isinstance(stmt.body, cst.IndentedBlock) or len(stmt.body.body) != 1:
        return None
    loop = stmt.body.body[0]
    if not isinstance(loop, (cst.For, cst.While)) or not isinstance(loop.body, cst.IndentedBlock) or loop.orelse:
        return None
    inner = stmt.with_changes(body=loop.body.with_changes(header=stmt.body.header), leading_lines=())  # each header keeps its comment
    moved = loop.with_changes(body=cst.IndentedBlock(body=[inner], header=loop.body.header),
                              leading_lines=stmt.leading_lines + loop.leading_lines)
    return tree.replace(stmt, moved)
