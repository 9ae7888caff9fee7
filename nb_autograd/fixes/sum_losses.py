"""`a.backward(); b.backward()` -> `(a + b).backward()` at the first call's place: the same
gradients (backward is linear), one pass, so the shared part is needed only once.

With `across_step=True`, `a.backward(); opt.step(); b.backward(); opt.step()`, both losses from one
forward: the step between them changed what `b` saved. Two losses of one forward stepped by the
same optimizer are one objective in two halves: one backward of the sum, one step."""
from __future__ import annotations

import libcst as cst

from .cst import backward_call, code_of, expr, facts_of, load, only_small, with_body
from .move_statement import is_step


def _plain_backward(tree, line):
    stmt = tree.statement(line, cst.SimpleStatementLine)
    small = only_small(stmt, cst.Expr)
    call = backward_call(small.value, tree) if small else None
    if call is None or call.args or not isinstance(call.func, cst.Attribute) or call.func.attr.value != "backward":
        return None, None
    return stmt, call


def _steps_between(between, after) -> bool:
    """Only optimizer steps between the calls, the same one as right after the second."""
    codes = {code_of(s.with_changes(leading_lines=())).strip() for s in between}
    return bool(between) and after is not None and all(is_step(s) for s in between) \
        and codes == {code_of(after.with_changes(leading_lines=())).strip()}


def sum_losses(source: str, *, first_line: int, line: int, across_step: bool = False) -> str | None:
    tree = load(source)
    if tree is None:
        return None
    (s1, c1), (s2, c2) = _plain_backward(tree, first_line), _plain_backward(tree, line)
    if s1 is None or s2 is None:
        return None
    b1, b2 = tree.block(s1), tree.block(s2)
    if b1 is None or b2 is None or b1[0] is not b2[0] or b1[1] >= b2[1]:
        return None
    body = list(b1[0].body)
    if across_step:
        after = body[b2[1] + 1] if b2[1] + 1 < len(body) else None
        if not _steps_between(body[b1[1] + 1:b2[1]], after):
            return None
        del body[b1[1] + 1:b2[1]]
        b2 = (b2[0], b1[1] + 1)
    between = facts_of(body[b1[1] + 1:b2[1]])
    second = facts_of([s2])
    assigned = {t for a in between.assigns for t in a.targets}
    touches_grads = any(c.func.endswith((".step", "zero_grad")) for c in between.calls) or \
        any(n.endswith(".grad") for n, _ in between.reads)
    if not between.parsed or touches_grads or assigned & {n for n, _ in second.reads}:
        return None  # the second loss must already exist, and nothing between may look at gradients
    a, b = code_of(c1.func.value), code_of(c2.func.value)
    total = expr(f"({a} + {b}).backward()")
    body[b1[1]] = s1.with_changes(body=[s1.body[0].with_changes(value=total)])
    del body[b2[1]]
    return with_body(tree, b1[0], body)
