"""Delete a backward() that repeats an earlier one on the same tensor: the first already
put the gradients in `.grad`; the repeat could only fail (or, kept alive, double them).

With `kept=<line>` the call at `line` goes and the one at `kept` stays, whichever runs first:
the rule passes it when the repeat sits in a helper (`_apply(loss)`: backward then step) that
the caller runs right after its own backward; the helper keeps doing its whole job.

A repeat that runs after the kept backward (`later=True`, the default) loses the `zero_grad()`
right before it too: it only made room for the repeat, and left alone it would wipe the
gradients the kept backward stored before the step uses them (a grad-norm logging helper).
When it zeroed another optimizer (`opt_d.zero_grad()` before a second backward of the same
loss for `opt_d.step()`), that zeroing moves up to the kept backward, so nothing accumulates."""
from __future__ import annotations

import libcst as cst

from .cst import autograd_function, backward_call, calls_in, code_of, load, only_small, with_body


def _receiver(call: cst.Call) -> str | None:
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "backward":
        return code_of(call.func.value)
    return code_of(call.args[0].value) if call.args else None


def _backward(tree, line: int):
    stmt = tree.statement(line, cst.SimpleStatementLine)
    small = only_small(stmt, cst.Expr)
    call = backward_call(small.value, tree) if small else None
    if call is None or autograd_function(call, tree) == "grad":
        return None, None
    return stmt, call


def remove_repeated_backward(source: str, *, line: int, kept: int | None = None, later: bool = True) -> str | None:
    tree = load(source)
    stmt, call = _backward(tree, line) if tree else (None, None)
    if call is None:
        return None
    if kept is not None:  # the call kept may be an autograd.grad() of the same loss (it reads what it needs)
        if kept == line or not any(backward_call(c, tree) is not None for c in calls_in(tree.statement(kept) or cst.Pass())):
            return None
        first = tree.statement(kept, cst.SimpleStatementLine)
    else:
        receiver = _receiver(call)
        earlier = [n for n, pos in tree.positions.items()
                   if isinstance(n, cst.Call) and pos.start.line < line and backward_call(n, tree) is not None
                   and autograd_function(n, tree) != "grad" and _receiver(n) == receiver]
        if not earlier:
            return None
        first = tree.enclosing(earlier[-1], cst.SimpleStatementLine)
    where = tree.block(stmt)
    if where is None:
        return None
    body = list(where[0].body)
    del body[where[1]]
    if later and where[1] > 0 and _zero_grad(body[where[1] - 1]):
        zeroed = body.pop(where[1] - 1)
        at = next((i for i, b in enumerate(body) if b is first), None)
        if at is not None and not any(b.deep_equals(zeroed) for b in body[:at]):
            body.insert(at, zeroed)  # a second optimizer zeroed before the one backward left (two steps of one loss)
    if not body:
        body = [cst.SimpleStatementLine([cst.Pass()])]
    return with_body(tree, where[0], body)


def _zero_grad(stmt) -> bool:
    small = only_small(stmt, cst.Expr)
    call = small.value if small is not None else None
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "zero_grad"
