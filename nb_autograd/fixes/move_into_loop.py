"""Move the assignment at a line to the top of a later loop's body, so each iteration builds
(and frees) its own graph for it instead of sharing one that the first backward frees.
The loop may sit inside later statements (`for epoch: for batch:`): it goes into the loop
whose iterations each backpropagate, not just the outermost one. The "loop" may also be a
function defined later that backpropagates (an optimizer's closure, re-evaluated by LBFGS
within one step): each call then builds its own graph."""
from __future__ import annotations

import libcst as cst

from .cst import LOOP, facts_of, load, only_small, with_body


def _read_count(nodes, names) -> int:
    return sum(1 for n, _ in facts_of(nodes).reads if n in names)


def _split_blank(lines):
    """(blank lines that stay where the statement was, the comment block that moves with it)."""
    lines = list(lines)
    first = next((i for i, l in enumerate(lines) if l.comment is not None), len(lines))
    return lines[:first], lines[first:]


def move_into_loop(source: str, *, line: int | None = None, loop_line: int, keep: bool = False, lines=(),
                   along: frozenset = frozenset()) -> str | None:
    """`keep`: copy it instead (it already ran where it is, e.g. in an earlier cell; the loop
    is a cell run again by hand), so reads of it outside the loop stay as they were. `lines`:
    several statements that build one value (a forward, then its loss), moved in their order.
    `along`: names the statements copied above it assign (its inputs are those copies)."""
    if lines:
        out, header = source, source.splitlines()[loop_line - 1] if 0 < loop_line <= len(source.splitlines()) else None
        for each in sorted(lines, reverse=True):  # the last first: each lands above the ones moved before it
            text = out.splitlines()
            at = next((i + 1 for i in range(min(loop_line, len(text)) - 1, -1, -1) if text[i] == header), None)
            out = move_into_loop(out, line=each, loop_line=at, keep=keep) if at else None  # the loop moved up
            if out is None:
                return None
        return out
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    loop = tree and tree.statement(loop_line, (*LOOP, cst.FunctionDef))
    if only_small(stmt, (cst.Assign, cst.AnnAssign)) is None or loop is None:
        return None
    here, outer = tree.block(stmt), loop
    if here is None:
        return None
    while outer is not None and (tree.block(outer) is None or tree.block(outer)[0] is not here[0]):
        outer = tree.parents.get(outer)  # the later sibling of `stmt` that holds the loop
    if outer is None or tree.block(outer)[1] <= here[1]:
        return None
    if not isinstance(loop.body, cst.IndentedBlock) or getattr(loop, "orelse", None) is not None:
        return None
    there = tree.block(outer)[1]
    siblings = list(here[0].body)
    own, between = facts_of([stmt]), facts_of(siblings[here[1] + 1:there])
    targets = {t for a in own.assigns for t in a.targets}
    reads = {n for a in own.assigns for n in a.reads}
    # a hand-written update in the loop (`w -= lr * w.grad`) is what the moved statement must see
    assigned_later = {t for a in (*between.assigns, *(a for a in facts_of([outer]).assigns if not a.augmented)) for t in a.targets}
    header = loop.iter if isinstance(loop, cst.For) else loop.params if isinstance(loop, cst.FunctionDef) else loop.test
    if keep:
        if not own.parsed or (reads - along) & assigned_later or _read_count([header], targets):
            return None
        copied = stmt.with_changes(leading_lines=())
        if any(s.deep_equals(copied) for s in loop.body.body):
            return None  # already there: applying twice changes nothing
        new_loop = loop.with_changes(body=loop.body.with_changes(body=[copied, *loop.body.body]))
        siblings[there] = outer.deep_replace(loop, new_loop) if outer is not loop else new_loop
        return with_body(tree, here[0], siblings)
    if not own.parsed or targets & {n for n, _ in between.reads} or (reads | targets) & assigned_later \
            or _read_count([outer], targets) != _read_count(list(loop.body.body), targets) \
            or _read_count([header], targets):
        return None  # read outside the loop's body, or its inputs change on the way
    stay, moving = _split_blank(stmt.leading_lines)
    moved = stmt.with_changes(leading_lines=moving)
    new_loop = loop.with_changes(body=loop.body.with_changes(body=[moved, *loop.body.body]))
    new_outer = outer.deep_replace(loop, new_loop) if outer is not loop else new_loop
    siblings[there] = new_outer
    follower = siblings[here[1] + 1]
    siblings[here[1] + 1] = follower.with_changes(leading_lines=[*stay, *follower.leading_lines])
    del siblings[here[1]]
    return with_body(tree, here[0], siblings)
