"""Each iteration of a loop with no optimizer step backpropagates its own loss through a
graph they share (experts over one trunk): add the losses up in the loop and call backward
once after it. Gradients add up, so every parameter gets what the separate calls would have
given, and the shared part is traversed once instead of being freed by the first call."""
from __future__ import annotations

import libcst as cst

from .cst import LOOP, backward_call, code_of, facts_of, load, only_small, with_body

_ATOM = (cst.Name, cst.Attribute, cst.Call, cst.Subscript)


def _fresh(tree, base: str = "total_loss") -> str:
    used = {n.value for n in tree.positions if isinstance(n, cst.Name)}
    return next(f"{base}{i or ''}" for i in range(len(used) + 2) if f"{base}{i or ''}" not in used)


def collect_loop_losses(source: str, *, line: int, loop_line: int) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    small = only_small(stmt, cst.Expr)
    call = backward_call(small.value, tree) if small else None
    if call is None or call.args or not isinstance(call.func, cst.Attribute) or call.func.attr.value != "backward":
        return None  # only a plain `loss.backward()`: retain_graph or gradient arguments mean more
    inner = tree.block(stmt)
    loop = inner and tree.parents.get(inner[0])
    outer = isinstance(loop, LOOP) and tree.block(loop)
    if not outer or loop.orelse is not None or tree.line(loop) != loop_line:
        return None  # the backward must run on every iteration, directly in the loop's body
    rest = [s for s in inner[0].body if s is not stmt]
    facts = facts_of(rest)
    if not facts.parsed or any(c.func.endswith((".step", "zero_grad")) for c in facts.calls) \
            or any(n.endswith(".grad") for n, _ in facts.reads):
        return None  # the loop looks at gradients between the calls: one backward would change that
    total = _fresh(tree)
    loss = call.func.value
    term = code_of(loss if isinstance(loss, _ATOM) or loss.lpar else loss.with_changes(
        lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
    add = cst.parse_statement(f"{total} = {total} + {term}\n").with_changes(leading_lines=stmt.leading_lines)
    body = list(inner[0].body)
    body[inner[1]] = add
    start = cst.parse_statement(f"{total} = 0\n").with_changes(leading_lines=loop.leading_lines)
    new_loop = loop.with_changes(leading_lines=(), body=loop.body.with_changes(body=body))
    siblings = list(outer[0].body)
    siblings[outer[1]:outer[1] + 1] = [start, new_loop, cst.parse_statement(f"{total}.backward()\n")]
    return with_body(tree, outer[0], siblings)
