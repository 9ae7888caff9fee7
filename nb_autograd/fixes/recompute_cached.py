"""Drop the `if key not in cache:` guard around a cache store, so the value is computed again
each time it is needed. A memoised tensor made from parameters that the optimizer trains goes
stale at every step, and its graph is freed by the first backward; detaching it instead would
leave the loss with no path to those parameters."""
from __future__ import annotations

import libcst as cst

from .cst import dotted, load, only_small


def _guard(tree, stmt, container: str):
    """The `if k not in container:` whose only statement is `stmt`, if there is one."""
    block = tree.parents.get(stmt)
    node = tree.parents.get(block)
    if not isinstance(node, cst.If) or node.orelse is not None or list(block.body) != [stmt]:
        return None
    test = node.test
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        if isinstance(target.operator, cst.NotIn) and dotted(target.comparator) == container:
            return node
    return None


def recompute_cached(source: str, *, line: int) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    small = only_small(stmt, cst.Assign)
    if small is None or len(small.targets) != 1 or not isinstance(small.targets[0].target, cst.Subscript):
        return None
    guard = _guard(tree, stmt, dotted(small.targets[0].target.value) or "")
    if guard is None or tree.block(guard) is None:
        return None
    return tree.replace(guard, stmt.with_changes(leading_lines=guard.leading_lines))
