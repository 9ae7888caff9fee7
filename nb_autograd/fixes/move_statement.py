"""Move one statement after another in the same block: `optimizer.step()` after the
backward that still needs the old parameters, or a loss computation after the step
(so it is recomputed from the updated parameters)."""
from __future__ import annotations

import libcst as cst

from .cst import backward_call, calls_in, code_of, load, with_body


def is_step(stmt: cst.CSTNode | None) -> bool:
    """A statement that calls `<something>.step(...)` (an optimizer step)."""
    return stmt is not None and any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "step"
                                    for c in calls_in(stmt))


def has_backward(stmt: cst.CSTNode | None) -> bool:
    return stmt is not None and any(backward_call(c) for c in calls_in(stmt))


def move_statement(source: str, line: int, after: int, check=None, together=None, others=()) -> str | None:
    """The statement starting at `line` goes right after the one starting at `after`, if
    `check(moved, anchor)` agrees: callers name what they move, so that the same move
    re-applied to its own result finds nothing to do. When the same statement already follows
    the anchor (the step was written twice, as when a step cell is run between two backward
    cells), the one out of place is only removed. The statements right after the moved one
    that `together` accepts go with it (the other optimizers' steps of one update), and those
    starting at `others` lines of the same block that `together` accepts, in their order."""
    tree = load(source)
    moved, anchor = (tree.statement(line), tree.statement(after)) if tree else (None, None)
    here = tree.block(moved) if moved and anchor else None
    if here and anchor is not None and not _in_block(tree, anchor, here[0]):
        anchor = _lifted(tree, anchor, here[0])  # `if loss is not None: loss.backward()`: after the `if`
    there = tree.block(anchor) if here and anchor is not None else None
    if not here or not there or here[0] is not there[0] or here[1] == there[1]:
        return None
    if check is not None and not check(moved, anchor):
        return None
    block = here[0]
    group = [moved]
    if together is not None:
        i, body = here[1], list(block.body)
        while i + len(group) < len(body) and body[i + len(group)] is not anchor and together(body[i + len(group)]):
            group.append(body[i + len(group)])
        j = body.index(anchor)
        extra = [tree.statement(o) for o in others]
        group += [s for s in extra if s is not None and _in_block(tree, s, block) and together(s)
                  and body.index(s) < j and not any(s is g for g in group)]
        group.sort(key=lambda s: next(k for k, b in enumerate(body) if b is s))
    rest = [s for s in block.body if not any(s is g for g in group)]
    j = rest.index(anchor)
    if j + 1 < len(rest) and code_of(rest[j + 1]).strip() == code_of(moved).strip():
        return with_body(tree, block, rest)  # already there after the anchor: the move is a deletion
    return with_body(tree, block, rest[:j + 1] + group + rest[j + 1:])


def _in_block(tree, stmt, block) -> bool:
    found = tree.block(stmt)
    return found is not None and found[0] is block


def _lifted(tree, stmt, block):
    """The compound statement of `block` that holds `stmt`, if any."""
    node = stmt
    while node in tree.parents and not _in_block(tree, node, block):
        node = tree.parents[node]
    return node if _in_block(tree, node, block) else None
