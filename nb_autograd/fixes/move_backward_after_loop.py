"""Dedent `total.backward()` out of the loop to just after it: one backward through the
summed graph instead of one per iteration through an ever longer, partly freed one.

With `with_step=True` (the rule passes it when the total is reset each outer iteration, so the
sum over this loop is the objective: a sequence's time steps, an ensemble's members) the
optimizer calls around the backward (`zero_grad()` just before, `step()` just after) go too."""
from __future__ import annotations

import libcst as cst

from .cst import LOOP, backward_line_call, facts_of, load, only_small, with_body


def _optimizer_call(stmt, method: str) -> bool:
    small = only_small(stmt, cst.Expr)
    call = small.value if small else None
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == method


def move_backward_after_loop(source: str, *, line: int, loop_line: int, with_step: bool = False) -> str | None:
    """Out of the loop at `loop_line` (the one that accumulates) and no further."""
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    call = backward_line_call(stmt, tree)
    others = [s.value for s in stmt.body if s.value is not call] if call is not None else []
    if others and not (with_step and all(isinstance(c, cst.Call) and isinstance(c.func, cst.Attribute)
                                         and c.func.attr.value in ("zero_grad", "step") for c in others)):
        return None  # a one-line update moves whole, so only where its optimizer calls go too
    if call is None or not isinstance(call.func, cst.Attribute) or call.func.attr.value != "backward" \
            or call.args or not isinstance(call.func.value, (cst.Name, cst.Attribute)):
        return None  # only `name.backward()`: what it backpropagates must mean the same after the loop
    inner = tree.block(stmt)
    loop = inner and tree.parents.get(inner[0])
    if not isinstance(loop, LOOP) or loop.orelse is not None or tree.line(loop) != loop_line:
        return None
    body = list(inner[0].body)
    start, end = inner[1], inner[1] + 1
    if with_step:
        start -= start > 0 and _optimizer_call(body[start - 1], "zero_grad")
        while end < len(body) and _optimizer_call(body[end], "step"):
            end += 1
    if end != len(body) or start < 1:
        return None  # something after it in the loop may need this iteration's gradients
    facts = facts_of(body[:start])
    if any(c.func.endswith((".step", "zero_grad")) for c in facts.calls):
        return None  # an optimizer steps inside the loop: one backward after it would change training
    outer = tree.block(loop)
    if outer is None:
        return None
    new_loop = loop.with_changes(body=loop.body.with_changes(body=body[:start]))
    siblings = list(outer[0].body)
    siblings[outer[1]:outer[1] + 1] = [new_loop, *body[start:]]
    return with_body(tree, outer[0], siblings)
