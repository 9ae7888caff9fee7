"""Delete a backward() that repeats an earlier one on the same tensor: the first already
put the gradients in `.grad`; the repeat could only fail (or, kept alive, double them)."""
from __future__ import annotations

import libcst as cst

from .cst import backward_call, code_of, load, only_small, with_body


def _receiver(call: cst.Call) -> str | None:
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "backward":
        return code_of(call.func.value)
    return code_of(call.args[0].value) if call.args else None


def remove_repeated_backward(source: str, *, line: int) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    small = only_small(stmt, cst.Expr)
    call = backward_call(small.value) if small else None
    if call is None or (code_of(call.func).endswith("grad")):
        return None
    receiver = _receiver(call)
    earlier = [n for n, pos in tree.positions.items()
               if isinstance(n, cst.Call) and pos.start.line < line and backward_call(n) is not None
               and not code_of(n.func).endswith("grad") and _receiver(n) == receiver]
    where = tree.block(stmt)
    if not earlier or where is None:
        return None
    body = list(where[0].body)
    del body[where[1]]
    if not body:
        body = [cst.SimpleStatementLine([cst.Pass()])]
    return with_body(tree, where[0], body)
