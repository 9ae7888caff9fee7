"""Delete a statement that turns gradient tracking off for parameters (`p.requires_grad =
False`, `model.requires_grad_(False)`), and a `for` loop left empty by that."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, load, with_body


def unfreeze(source: str, line: int) -> str | None:
    tree = load(source)
    target = tree and tree.statement(line)
    if target is None or "requires_grad" not in code_of(target):
        return None  # only ever delete the freezing statement itself
    where = tree.block(target)
    while where and len(where[0].body) == 1 and isinstance(tree.parents.get(where[0]), cst.For) \
            and tree.parents[where[0]].orelse is None and tree.block(tree.parents[where[0]]):
        target = tree.parents[where[0]]  # the loop holds nothing else: it goes too
        where = tree.block(target)
    if not where:
        return None
    block, i = where
    rest = list(block.body[:i]) + list(block.body[i + 1:])
    return with_body(tree, block, rest or [cst.SimpleStatementLine([cst.Pass()])])
