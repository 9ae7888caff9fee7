"""`for name, l in losses.items(): l.backward()` over losses that share a graph: the first
backward frees what the others need. One backward of their sum gives every parameter the same
gradient as the separate calls would (gradients add up), without keeping the graph alive."""
from __future__ import annotations

import libcst as cst

from .cst import LOOP, backward_call, code_of, dotted, load, only_small


def _collection(loop: cst.For) -> tuple[str, str] | None:
    """(the loop's loss name, the code for the sequence of losses it walks)."""
    target, it = loop.target, loop.iter
    method = it.func.attr.value if isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) else None
    if isinstance(target, cst.Name) and dotted(it):
        return target.value, code_of(it)
    if isinstance(target, cst.Name) and method == "values" and not it.args and dotted(it.func.value):
        return target.value, code_of(it)
    if isinstance(target, cst.Tuple) and len(target.elements) == 2 and method == "items" and not it.args \
            and isinstance(target.elements[1].value, cst.Name) and dotted(it.func.value):
        return target.elements[1].value.value, f"{code_of(it.func.value)}.values()"
    return None


def sum_loop_backward(source: str, *, line: int) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    loop = stmt and tree.enclosing(stmt, LOOP)
    small = only_small(stmt, cst.Expr)
    call = backward_call(small.value, tree) if small else None
    if call is None or not isinstance(loop, cst.For) or loop.orelse is not None or tree.block(loop) is None \
            or not isinstance(loop.body, cst.IndentedBlock) or list(loop.body.body) != [stmt]:
        return None  # the loop must do nothing but the backward
    found = _collection(loop)
    if found is None or not isinstance(call.func, cst.Attribute) or call.args \
            or dotted(call.func.value) != found[0]:
        return None
    one = cst.parse_statement(f"sum({found[1]}).backward()\n").with_changes(leading_lines=loop.leading_lines)
    return tree.replace(loop, one)
