"""`h.detach()` written as a statement returns the detached tensor and throws it away; keep
it: `h = h.detach()`. Not for a loop variable (`for h in states: h.detach()`), where the
new binding would be lost again at the next item."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, load


def assign_detach(source: str, line: int) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    if stmt is None or len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Expr):
        return None
    call = stmt.body[0].value
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "detach"
            and isinstance(call.func.value, (cst.Name, cst.Attribute)) and not call.args):
        return None
    receiver = call.func.value
    loop = tree.enclosing(stmt, cst.For)
    if loop is not None and code_of(loop.target).strip() == code_of(receiver).strip():
        return None
    assign = cst.Assign(targets=[cst.AssignTarget(receiver)], value=call)
    return tree.replace(stmt, stmt.with_changes(body=[assign]))
