"""Start a running loss afresh for each backward that consumes it, instead of letting it keep
(freed) terms from earlier backwards.

Two shapes, both where the total really is the objective of one backward:
- it sums an inner loop (a sequence's time steps) and is backpropagated once per iteration
  of an outer loop, but was initialised outside that outer loop: the initialisation moves to
  the top of the outer loop's body;
- it is backpropagated only on some iterations (`if step % k == 0:`, gradient accumulation):
  it is reset to its initial value right after the optimizer calls that follow the backward.
Either way every gradient the user meant to apply is still applied, once."""
from __future__ import annotations

import libcst as cst

from .cst import LOOP, load, only_small, with_body
from .use_item import key, mentions


def _init(tree, name: str, acc):
    """The last `name = value` before the accumulation, outside the loop that accumulates."""
    loop = tree.enclosing(acc, LOOP)
    found = None
    for node in tree.positions:
        small = only_small(node, cst.Assign) if isinstance(node, cst.SimpleStatementLine) else None
        if small is None or len(small.targets) != 1 or key(small.targets[0].target) != name:
            continue
        if mentions(small.value, name) or tree.line(node) >= tree.line(acc) or tree.inside(node, loop):
            continue
        if found is None or tree.line(node) > tree.line(found):
            found = node
    return found


def _move_init(tree, init, loop) -> str | None:
    here = tree.block(init)
    if here is None or not isinstance(loop.body, cst.IndentedBlock) or tree.inside(init, loop):
        return None
    body = list(loop.body.body)
    moved = init.with_changes(leading_lines=())
    new_loop = loop.with_changes(body=loop.body.with_changes(body=[moved, *body]))
    siblings = [new_loop if s is loop else s for s in here[0].body]
    outer = next((s for s in siblings if s is not loop and tree.inside(loop, s)), None)
    if outer is not None:
        siblings[siblings.index(outer)] = outer.deep_replace(loop, new_loop)
    elif new_loop not in siblings:
        return None
    index = siblings.index(init)
    follower = siblings[index + 1]  # keeps the blank lines that stood before the initialisation
    siblings[index + 1] = follower.with_changes(leading_lines=[*init.leading_lines, *follower.leading_lines])
    del siblings[index]
    return with_body(tree, here[0], siblings)


def _reset_after(tree, init, bw, name: str) -> str | None:
    block, index = tree.block(bw)
    body = list(block.body)
    if any(_assigns(s, name) for s in body[index + 1:]):
        return None  # already reset (or rebound) after the backward
    # statements that only read it (`log.append(total.item())`) keep the step's total: reset after them
    reset = init.with_changes(leading_lines=())
    return with_body(tree, block, [*body, reset])


def _assigns(stmt, name: str) -> bool:
    """Whether `stmt` (or anything nested in it) rebinds `name`."""
    found = []

    class _Find(cst.CSTVisitor):
        def visit_Assign(self, n):
            found.extend(t for t in n.targets if key(t.target) == name)

        def visit_AugAssign(self, n):
            if key(n.target) == name:
                found.append(n)

        def visit_AnnAssign(self, n):
            if key(n.target) == name:
                found.append(n)

    stmt.visit(_Find())
    return bool(found)


def reset_total(source: str, *, line: int, backward_line: int, name: str) -> str | None:
    tree = load(source)
    acc = tree and tree.statement(line, cst.SimpleStatementLine)
    bw = tree and tree.statement(backward_line, cst.SimpleStatementLine)
    if acc is None or bw is None or tree.block(bw) is None or "[" in name:
        return None
    init = _init(tree, name, acc)
    if init is None:
        return None
    holder = tree.parents.get(tree.block(bw)[0])
    acc_loop, bw_loop = tree.enclosing(acc, LOOP), tree.enclosing(bw, LOOP)
    if isinstance(holder, LOOP) and acc_loop is not holder and acc_loop is not None \
            and tree.inside(acc_loop, holder) and tree.line(init) < tree.line(holder):
        return _move_init(tree, init, holder)
    if isinstance(holder, cst.If) and not tree.inside(acc, holder) and bw_loop is not None \
            and bw_loop is acc_loop:
        return _reset_after(tree, init, bw, name)
    return None
