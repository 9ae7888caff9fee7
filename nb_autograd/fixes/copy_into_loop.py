"""Copy the statements that build a value (given as lines, in order) to the top of a later
loop's body, or right before a later statement, leaving them where they are: for a value
made in an earlier notebook cell that a re-run cell backpropagates again, the cell that
backpropagates builds it afresh each run."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, facts_of, load, only_small, with_body
from .move_into_loop import move_into_loop


def copy_into_loop(source: str, *, lines: tuple[int, ...], loop_line: int | None = None,
                   before: int | None = None) -> str | None:
    if before is not None:
        return _copy_before(source, lines, before)
    out, tree = source, load(source)
    statements = [tree and tree.statement(line, cst.SimpleStatementLine) for line in sorted(lines)]
    if tree is None or None in statements:
        return None
    made = [{t for a in facts_of([s]).assigns for t in a.targets} for s in statements]
    for i, line in reversed(list(enumerate(sorted(lines)))):  # each goes to the top: the last one first
        along = frozenset().union(*made[:i])  # what the copies above it assign
        patched = move_into_loop(out, line=line, loop_line=loop_line, keep=True, along=along)  # inserted below both lines
        if patched is None:
            return None
        out = patched
    return out


def _copy_before(source: str, lines: tuple[int, ...], before: int) -> str | None:
    """The assignments at `lines`, copied in order right before the statement at `before`
    (in its block); nothing when they are already there."""
    tree = load(source)
    anchor = tree and tree.statement(before)
    where = anchor and tree.block(anchor)
    copied = [tree.statement(line, cst.SimpleStatementLine) for line in sorted(lines)] if where else []
    if not where or not copied or any(only_small(s, (cst.Assign, cst.AnnAssign)) is None for s in copied):
        return None
    block, i = where
    body = list(block.body)
    wanted = [code_of(s).strip() for s in copied]
    around = [code_of(s).strip() for s in body[max(0, i - len(copied)):i + len(copied)]]
    if any(around[k:k + len(wanted)] == wanted for k in range(len(around))):
        return None  # already there (re-applied, the lines below moved down by the copy)
    fresh = [s.with_changes(leading_lines=()) for s in copied]
    return with_body(tree, block, body[:i] + fresh + body[i:])
