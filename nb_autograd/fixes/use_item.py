"""The other cure for a running loss: backpropagate this step's own term, and accumulate
only its value (`.item()`), so the running total no longer carries any graph."""
from __future__ import annotations

import libcst as cst

from .cst import LOOP, backward_call, dotted, load, only_small, reads_of, swap, with_body


def _term(small, name: str):
    """(the step's term, how to rebuild the accumulation with a new term) or None."""
    if isinstance(small, cst.AugAssign) and dotted(small.target) == name and isinstance(small.operator, cst.AddAssign):
        return small.value, lambda new: small.with_changes(value=new)
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and dotted(small.targets[0].target) == name \
            and isinstance(small.value, cst.BinaryOperation) and isinstance(small.value.operator, cst.Add):
        op = small.value
        if dotted(op.left) == name and not reads_of(op.right, {name}):
            return op.right, lambda new: small.with_changes(value=op.with_changes(right=new))
        if dotted(op.right) == name and not reads_of(op.left, {name}):
            return op.left, lambda new: small.with_changes(value=op.with_changes(left=new))
    return None


def _fresh(tree, base: str = "step_loss") -> str:
    used = {n.value for n in tree.positions if isinstance(n, cst.Name)}
    return next(f"{base}{i or ''}" for i in range(len(used) + 2) if f"{base}{i or ''}" not in used)


def use_item(source: str, *, line: int, backward_line: int, name: str) -> str | None:
    tree = load(source)
    acc = tree and tree.statement(line, cst.SimpleStatementLine)
    bw = tree and tree.statement(backward_line, cst.SimpleStatementLine)
    small, bw_small = only_small(acc), only_small(bw, cst.Expr)
    found = _term(small, name) if small else None
    call = backward_call(bw_small.value) if bw_small else None
    if found is None or call is None or not isinstance(call.func, cst.Attribute) or backward_line <= line:
        return None
    receiver = call.func.value
    uses = reads_of(receiver, {name})
    loop = tree.enclosing(acc, LOOP)
    if not uses or tree.block(acc) is None or loop is None or not tree.inside(bw, loop):
        return None
    as_tensor = any(isinstance(n, cst.Attribute) and dotted(n.value) == name and pos.start.line != backward_line
                    for n, pos in tree.positions.items())
    term, rebuild = found
    fresh = term.value if isinstance(term, cst.Name) else _fresh(tree)
    # `name.item()` elsewhere needs a tensor: accumulate a detached one then, not a float
    item = cst.Call(func=cst.Attribute(value=cst.Name(fresh), attr=cst.Name("detach" if as_tensor else "item")))
    new_bw = swap(bw, {u: cst.Name(fresh) for u in uses})
    module = tree.module.deep_replace(bw, new_bw)
    tree2 = load(module.code)
    acc2 = tree2.statement(line, cst.SimpleStatementLine)
    if isinstance(term, cst.Name):
        return tree2.replace(acc2, acc2.with_changes(body=[rebuild(item)]))
    block, index = tree2.block(acc2)
    step = cst.parse_statement(f"{fresh} = x\n").with_changes(leading_lines=acc2.leading_lines)
    step = step.with_changes(body=[step.body[0].with_changes(value=term)])
    body = list(block.body)
    body[index:index + 1] = [step, acc2.with_changes(leading_lines=(), body=[rebuild(item)])]
    return with_body(tree2, block, body)
