"""Running totals kept per key (`totals[k] = totals[k] + v` over `losses.items()`) are metrics
like a single running total: each slot gets the float (`v.item()`), and the loss that is
backpropagated is made from this step's own dict (`sum(losses.values())`), not the totals.

When the loop computes each key's term itself (`for t, head in heads.items(): totals[t] =
totals[t] + w[t] * crit(head(x), y[t])`), there is no step dict yet: one is made
(`step_totals = {}` before the loop, `step_totals[t] = <term>` in it) and serves the same way."""
from __future__ import annotations

import libcst as cst

from .cst import LOOP, backward_line_call, dotted, load, only_small, swap
from .use_item import mentions


def _slot(target):
    """(`totals`, `k`) for `totals[k]` with a plain-name key."""
    if isinstance(target, cst.Subscript) and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index):
        index = target.slice[0].slice.value
        if isinstance(index, cst.Name) and dotted(target.value):
            return dotted(target.value), index.value
    return None


def _items_loop(loop, k: str):
    """(`losses`, `v`) for `for k, v in losses.items():`."""
    it, target = loop.iter, loop.target
    if not (isinstance(loop, cst.For) and isinstance(target, cst.Tuple) and len(target.elements) == 2):
        return None
    names = [e.value.value if isinstance(e.value, cst.Name) else None for e in target.elements]
    if names[0] != k or names[1] is None or not (isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute)
                                                 and it.func.attr.value == "items" and not it.args):
        return None
    source = dotted(it.func.value)
    return (source, names[1]) if source else None


def _renamed(node, old: str, new: str):
    """`node` with each read of the dotted name `old` replaced by `new`."""
    found = {}

    class _Find(cst.CSTVisitor):
        def on_visit(self, n):
            if isinstance(n, (cst.Name, cst.Attribute)) and dotted(n) == old:
                found[n] = cst.parse_expression(new)
                return False
            return True

    node.visit(_Find())
    return swap(node, found)


def use_item_per_key(source: str, *, line: int, backward_line: int) -> str | None:
    tree = load(source)
    acc = tree and tree.statement(line, cst.SimpleStatementLine)
    bw = tree and tree.statement(backward_line, cst.SimpleStatementLine)
    small = only_small(acc, (cst.Assign, cst.AugAssign))
    slot = small and _slot(small.target if isinstance(small, cst.AugAssign) else small.targets[0].target)
    loop = slot and tree.enclosing(acc, LOOP)
    pair = loop and _items_loop(loop, slot[1])
    call = backward_line_call(bw, tree)
    if call is None or not loop or tree.block(loop) is None or tree.block(bw) is None:
        return None
    totals = totals_of = slot[0]
    term = _term_of(small, totals, slot[1])
    fresh = None  # the step dict this fix introduces, when the loop computes each term
    if pair and isinstance(term[0], cst.Name) and term[0].value == pair[1]:
        losses = pair[0]
    elif term[0] is not None and not isinstance(term[0], cst.Name) and _binds(loop, slot[1]) \
            and acc in getattr(loop.body, "body", ()) and not mentions(term[0], totals_of) \
            and not (isinstance(term[0], cst.Call) and dotted(term[0].func) and dotted(term[0].func).endswith(".item")):
        fresh = _fresh_name(source, f"step_{totals.split('.')[-1]}")
        losses = fresh
    else:
        return None
    block, index = tree.block(loop)
    body = list(block.body)
    if bw not in body or body.index(bw) <= index:
        return None
    receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
    edits = {}
    for stmt in body[index + 1:body.index(bw) + 1]:  # the statements that make the loss from the totals
        if mentions(stmt, totals) and (stmt is bw or _assigns(stmt, receiver)):
            edits[stmt] = _renamed(stmt, totals, losses)
    if not edits:
        return None
    if fresh is None:
        item = cst.Call(func=cst.Attribute(value=term[0], attr=cst.Name("item")))
        edits[small] = term[1](item)
        return swap(tree.module, edits).code
    slot_expr = cst.parse_expression(f"{fresh}[{slot[1]}]")
    keep = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(slot_expr)], term[0])],
                                   leading_lines=acc.leading_lines)
    item = cst.Call(func=cst.Attribute(value=slot_expr, attr=cst.Name("item")))
    new_acc = acc.with_changes(body=[term[1](item)], leading_lines=())
    lines = list(loop.body.body)
    at = lines.index(acc)
    lines[at:at + 1] = [keep, new_acc]
    new_loop = loop.with_changes(body=loop.body.with_changes(body=lines))
    init = cst.parse_statement(f"{fresh} = {{}}\n").with_changes(leading_lines=loop.leading_lines)
    edits[loop] = cst.FlattenSentinel([init, new_loop.with_changes(leading_lines=())])
    return swap(tree.module, edits).code


def _binds(loop, k: str) -> bool:
    """Whether `for` loop `loop` binds the plain name `k` (`for k in ...`, `for k, v in ...`)."""
    target = loop.target if isinstance(loop, cst.For) else None
    if isinstance(target, cst.Name):
        return target.value == k
    return isinstance(target, cst.Tuple) and any(isinstance(e.value, cst.Name) and e.value.value == k
                                                 for e in target.elements)


def _fresh_name(source: str, base: str) -> str:
    name, n = base, 2
    while name in source:
        name, n = f"{base}_{n}", n + 1
    return name


def _assigns(stmt, receiver) -> bool:
    small = only_small(stmt, cst.Assign)
    return bool(small and receiver is not None and len(small.targets) == 1
                and dotted(small.targets[0].target) == dotted(receiver))


def _term_of(small, totals: str, k: str):
    """(the added term, how to rebuild the statement around a new term) for `totals[k]`."""
    if isinstance(small, cst.AugAssign):
        return small.value, lambda new: small.with_changes(value=new)
    op = small.value
    if not isinstance(op, cst.BinaryOperation) or not isinstance(op.operator, cst.Add):
        return None, None
    same = lambda n: _slot(n) == (totals, k)
    if same(op.left):
        return op.right, lambda new: small.with_changes(value=op.with_changes(right=new))
    if same(op.right):
        return op.left, lambda new: small.with_changes(value=op.with_changes(left=new))
    return None, None

