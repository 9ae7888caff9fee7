"""A total already backpropagated is added to again and backpropagated a second time (SAM's
second pass adding its task losses to the first pass's `loss`): start it afresh, with the
value it was first given, before the second accumulation (before its loop, if it has one)."""
from __future__ import annotations

import libcst as cst

from .cst import LOOP, dotted, load, only_small, with_body


def reset_before_accumulating(source: str, *, line: int, name: str, init_line: int, first_line: int) -> str | None:
    tree = load(source)
    acc = tree and tree.statement(line, cst.SimpleStatementLine)
    init = tree and tree.statement(init_line, cst.SimpleStatementLine)
    small = only_small(init, cst.Assign)
    if acc is None or small is None or len(small.targets) != 1 or dotted(small.targets[0].target) != name:
        return None
    anchor = acc
    loop = tree.enclosing(acc, LOOP)
    while loop is not None and not (tree.line(loop) <= first_line <= tree.positions[loop].end.line):
        anchor, loop = loop, tree.enclosing(loop, LOOP)  # the outermost loop that is only the second pass
    where = tree.block(anchor)
    if where is None:
        return None
    block, index = where
    body = list(block.body)
    fresh = init.with_changes(leading_lines=())
    if index > 0 and body[index - 1].with_changes(leading_lines=()).deep_equals(fresh):
        return None  # already reset there
    return with_body(tree, block, [*body[:index], fresh, *body[index:]])
