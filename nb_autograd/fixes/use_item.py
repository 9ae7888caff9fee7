"""The other cure for a running loss: backpropagate this step's own loss, and accumulate
only its value (`.item()`), so the running total no longer carries any graph.

The running total (or an average made from it) is a metric: the step trains on its own loss at
full weight, not on `total / n` (a learning rate shrinking every step) nor on a weighted copy."""
from __future__ import annotations

import libcst as cst

from .cst import LOOP, backward_line_call, dotted, load, only_small, with_body

_NUMBER = (cst.Integer, cst.Float)


def key(node: cst.CSTNode) -> str | None:
    """`a.b`, or `meter['total']` for a constant-key slot (the evidence reader's spelling)."""
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        index, base = node.slice[0].slice.value, dotted(node.value)
        if base and isinstance(index, (cst.SimpleString, cst.Integer)):
            return f"{base}[{index.evaluated_value!r}]"
        return None
    return dotted(node)


def mentions(node: cst.CSTNode, name: str) -> bool:
    found = []

    class _Find(cst.CSTVisitor):
        def on_visit(self, n):
            if isinstance(n, (cst.Name, cst.Attribute, cst.Subscript)) and key(n) == name:
                found.append(n)
            return not found

    node.visit(_Find())
    return bool(found)


def _term(small, name: str):
    """(the step's term, how to rebuild the accumulation with a new term) or None."""
    if isinstance(small, cst.AugAssign) and key(small.target) == name and isinstance(small.operator, cst.AddAssign):
        return small.value, lambda new: small.with_changes(value=new)
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and key(small.targets[0].target) == name \
            and isinstance(small.value, cst.BinaryOperation) and isinstance(small.value.operator, cst.Add):
        op = small.value
        if key(op.left) == name and not mentions(op.right, name):
            return op.right, lambda new: small.with_changes(value=op.with_changes(right=new))
        if key(op.right) == name and not mentions(op.left, name):
            return op.left, lambda new: small.with_changes(value=op.with_changes(left=new))
    return None


def _named_loss(term):
    """The loss inside a term that is a loss or a constant-weighted loss (`0.5 * loss`), and
    how to rebuild the term around a new loss; None for any other expression."""
    if isinstance(term, cst.Name):
        return term, lambda new: new
    if isinstance(term, cst.BinaryOperation) and isinstance(term.operator, (cst.Multiply, cst.Divide)):
        if isinstance(term.left, cst.Name) and isinstance(term.right, _NUMBER):
            return term.left, lambda new: term.with_changes(left=new)
        if isinstance(term.right, cst.Name) and isinstance(term.left, _NUMBER) and isinstance(term.operator, cst.Multiply):
            return term.right, lambda new: term.with_changes(right=new)
    return None


def _fresh(tree, base: str = "step_loss") -> str:
    used = {n.value for n in tree.positions if isinstance(n, cst.Name)}
    return next(f"{base}{i or ''}" for i in range(len(used) + 2) if f"{base}{i or ''}" not in used)


def _scope(tree, node):
    return tree.enclosing(node, (*LOOP, cst.FunctionDef))


def _conditional(tree, bw, acc, scope) -> bool:
    """The backward runs only on some of the iterations that accumulate (gradient accumulation):
    backpropagating each step's own loss there would drop the other steps' losses."""
    node = bw
    while node in tree.parents and node is not scope:
        node = tree.parents[node]
        if isinstance(node, cst.If) and not tree.inside(acc, node):
            return True
    return False


def _backpropagates(tree, bw, receiver, name: str) -> bool:
    """The backward's tensor is made from the running total: directly, or through one name
    assigned from it just before in the same block (`avg = total / n; avg.backward()`)."""
    if mentions(receiver, name):
        return True
    block = tree.block(bw)
    if not isinstance(receiver, cst.Name) or block is None:
        return False
    for stmt in reversed(list(block[0].body)[:block[1]]):
        small = only_small(stmt, cst.Assign)
        if small and len(small.targets) == 1 and key(small.targets[0].target) == receiver.value:
            return mentions(small.value, name)
    return False


def use_item(source: str, *, line: int, backward_line: int, name: str) -> str | None:
    tree = load(source)
    acc = tree and tree.statement(line, cst.SimpleStatementLine)
    bw = tree and tree.statement(backward_line, cst.SimpleStatementLine)
    small = only_small(acc)
    found = _term(small, name) if small else None
    call = backward_line_call(bw, tree)
    if found is None or call is None or not isinstance(call.func, cst.Attribute) or backward_line <= line:
        return None
    scope = _scope(tree, acc)
    if scope is None or _scope(tree, bw) is not scope or tree.block(acc) is None \
            or not _backpropagates(tree, bw, call.func.value, name) or _conditional(tree, bw, acc, scope):
        return None
    as_tensor = any(isinstance(n, cst.Attribute) and key(n.value) == name and pos.start.line != backward_line
                    for n, pos in tree.positions.items())
    term, rebuild = found
    named = _named_loss(term)
    fresh = named[0].value if named else _fresh(tree)
    # `name.item()` elsewhere needs a tensor: accumulate a detached one then, not a float
    item = cst.Call(func=cst.Attribute(value=cst.Name(fresh), attr=cst.Name("detach" if as_tensor else "item")))
    new_bw = bw.deep_replace(call, call.with_changes(func=call.func.with_changes(value=cst.Name(fresh))))
    tree2 = load(tree.module.deep_replace(bw, new_bw).code)
    acc2 = tree2.statement(line, cst.SimpleStatementLine)
    if named:
        return tree2.replace(acc2, acc2.with_changes(body=[rebuild(named[1](item))]))
    block, index = tree2.block(acc2)
    step = cst.parse_statement(f"{fresh} = x\n").with_changes(leading_lines=acc2.leading_lines)
    step = step.with_changes(body=[step.body[0].with_changes(value=term)])
    body = list(block.body)
    body[index:index + 1] = [step, acc2.with_changes(leading_lines=(), body=[rebuild(item)])]
    return with_body(tree2, block, body)
