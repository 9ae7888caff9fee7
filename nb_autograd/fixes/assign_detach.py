"""`h.detach()` written as a statement returns the detached tensor and throws it away; keep
it: `h = h.detach()`. For a loop variable (`for s in state: s.detach()`) a new binding would
be lost at the next item: the item itself is detached in place (`s.detach_()`), which cuts
the tensor the container holds (d2l's scratch RNN, d2l-ai/d2l-en PR 1410), unless the states
are views, which `detach_()` refuses (then the rule's next fix detaches the state itself)."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, load


def assign_detach(source: str, line: int, in_place: bool = True) -> str | None:
    """`in_place=False`: the runtime saw views among the states (`detach_()` refuses them)."""
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
        if not in_place:
            return None
        detach_ = call.with_changes(func=call.func.with_changes(attr=cst.Name("detach_")))
        return tree.replace(stmt, stmt.with_changes(body=[stmt.body[0].with_changes(value=detach_)]))
    assign = cst.Assign(targets=[cst.AssignTarget(receiver)], value=call)
    return tree.replace(stmt, stmt.with_changes(body=[assign]))
