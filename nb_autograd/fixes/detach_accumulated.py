"""A running total kept as a tensor (`total_loss += loss`, `total = total + loss`) holds every
step's graph alive. Add only the value (`loss.detach()`): the total stays a tensor for logging,
and the graphs are freed after each backward. Sibling totals in the same block (`running_mse
+= mse`) get the same edit; a total that is itself backpropagated is left alone."""
from __future__ import annotations

import libcst as cst

from .cst import backward_call, calls_in, detached, dotted, is_detach, load, only_small, with_body

_VALUES = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.BinaryOperation)


def _edit(small, backpropagated: set[str]):
    """The statement with its added value detached, or None when it is not a running total."""
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign):
        name, value = dotted(small.target), small.value
        if name and name not in backpropagated and isinstance(value, _VALUES) and not is_detach(value):
            return small.with_changes(value=detached(value))
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.value, cst.BinaryOperation) \
            and isinstance(small.value.operator, cst.Add):
        name = dotted(small.targets[0].target)
        right = small.value.right
        if name and name not in backpropagated and dotted(small.value.left) == name and isinstance(right, _VALUES) \
                and not is_detach(right):
            return small.with_changes(value=small.value.with_changes(right=detached(right)))
    return None


def detach_accumulated(source: str, *, line: int, name: str) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    small = only_small(stmt)
    if small is None or tree.block(stmt) is None:
        return None
    backpropagated = {dotted(c.func.value) for c in calls_in(tree.module) if backward_call(c, tree) is not None
                      and isinstance(c.func, cst.Attribute)}
    first = _edit(small, backpropagated)
    target = small.target if isinstance(small, cst.AugAssign) else getattr(small, "targets", [None])[0]
    if first is None or dotted(getattr(target, "target", target)) != name:
        return None
    block, _ = tree.block(stmt)
    value = small.value if isinstance(small, cst.AugAssign) else small.value.right
    siblings = _made_with(block, dotted(value)) if isinstance(value, cst.Name) else set()
    body = []
    for s in block.body:
        one = only_small(s)
        edited = _edit(one, backpropagated) if one is not None else None
        added = one.value if isinstance(one, cst.AugAssign) else getattr(getattr(one, "value", None), "right", None)
        if edited is not None and (s is stmt or dotted(added) in siblings):
            s = s.with_changes(body=[edited])
        body.append(s)
    return with_body(tree, block, body)


def _made_with(block, name: str) -> set[str]:
    """The names one assignment in the block makes together with `name`
    (`loss, mse, ce = my_loss(...)`): totals of those are the same kind of thing."""
    for s in block.body:
        one = only_small(s)
        if isinstance(one, cst.Assign) and len(one.targets) == 1 and isinstance(one.targets[0].target, cst.Tuple):
            names = {dotted(e.value) for e in one.targets[0].target.elements}
            if name in names:
                return names
    return {name}
