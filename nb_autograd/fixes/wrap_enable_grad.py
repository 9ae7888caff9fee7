"""Wrap a call made inside a no_grad function in `with torch.enable_grad():` (an optimizer's
`step()` decorated with `@torch.no_grad()` calling the closure that computes the loss): the
closure's forward builds its graph again, and the update itself stays untracked."""
from __future__ import annotations

import libcst as cst

from .cst import STATEMENT, expr, load
from .wrap_no_grad import _torch_alias


def wrap_enable_grad(source: str, *, line: int) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line, STATEMENT)
    torch = tree and _torch_alias(tree.module)
    if stmt is None or torch is None or tree.block(stmt) is None or "enable_grad" in tree.module.code_for_node(stmt):
        return None
    wrapped = cst.With(items=[cst.WithItem(expr(f"{torch}.enable_grad()"))],
                       body=cst.IndentedBlock(body=[stmt.with_changes(leading_lines=())]),
                       leading_lines=stmt.leading_lines)
    return tree.replace(stmt, wrapped)
