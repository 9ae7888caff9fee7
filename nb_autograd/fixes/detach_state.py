"""Truncated backpropagation through time: cut the recurrent state from the previous batch's
graph once per backward (`h = h.detach()`, `h, c = h.detach(), c.detach()`,
`hidden = tuple(s.detach() for s in hidden)` for an LSTM's (h, c) pair), guarded by
`if hidden is not None:` when the state starts as None (the module then makes zeros).

Where: at the top of the innermost loop or function body that holds both the state update and
the backward (a loop over batches; a train_step(h) helper; a chunk method whose inner loop
unrolls time steps, which must stay connected). When the update sits in a function the loop
calls and the backward outside it (a forward() that keeps `self.hidden`), right after the update.
When the backward runs only every k steps (`if (t + 1) % k == 0:`), the truncation boundary is
that block: the state is cut at its end, so the k steps in between stay connected."""
from __future__ import annotations

import re

import libcst as cst

from .cst import LOOP, calls_in, code_of, dotted, load

_TUPLE_STATE = re.compile(r"lstm", re.I)
_TENSOR_STATE = re.compile(r"rnn|gru|cell", re.I)
_SCOPE = (*LOOP, cst.FunctionDef)


def _assignments(tree, name: str):
    """Values assigned to `name` anywhere (plain `name = value` only)."""
    for node in tree.positions:
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and dotted(node.targets[0].target) == name:
            yield node.value


def statement_code(tree, scope, line: int, names, as_tuple: bool | None = None, after: bool = False) -> str | None:
    """The line to insert: a tuple state (as seen at run time, else guessed from the code: an
    LSTM's or a tuple literal), a state that starts as None, or a plain tensor."""
    stmt = tree.statement(line, cst.SimpleStatementLine)
    if stmt is None or not tree.inside(stmt, scope):
        return None
    if len(names) > 1:
        return f"{', '.join(names)} = {', '.join(f'{n}.detach()' for n in names)}"
    name = names[0]
    callees = [dotted(c.func) or "" for c in calls_in(stmt)]
    values = [v for v in _assignments(tree, name) if not tree.inside(v, scope)]
    if as_tuple is None and (any(_TUPLE_STATE.search(c) for c in callees) or any(isinstance(v, cst.Tuple) for v in values)):
        as_tuple = True
    if as_tuple:
        code = f"{name} = tuple(s.detach() for s in {name})"
    elif as_tuple is None and not any(_TENSOR_STATE.search(c) for c in callees):  # a user's model: either
        code = f"{name} = tuple(s.detach() for s in {name}) if isinstance({name}, tuple) else {name}.detach()"
    else:
        code = f"{name} = {name}.detach()"
    if not after and any(isinstance(v, cst.Name) and v.value == "None" for v in values):
        return f"if {name} is not None:\n    {code}"  # the first batch starts with no state
    return code


def _where(tree, line: int, loop_line: int, backward_line: int | None):
    """(scope, after): the scope whose body gets the line at its top, or the update's own
    scope with after=True."""
    if backward_line is None:
        return tree.statement(loop_line, LOOP), False
    stmt = tree.statement(line, cst.SimpleStatementLine)
    bw = tree.statement(backward_line, cst.SimpleStatementLine)
    node = stmt
    while stmt is not None and bw is not None:
        node = tree.enclosing(node, _SCOPE)
        if node is None:
            return tree.enclosing(stmt, _SCOPE), True
        if tree.inside(bw, node):
            return node, False
    return None, False


def _boundary(tree, line: int, backward_line: int | None, scope):
    """The `if` block (inside `scope`, without the update) that holds the backward, if any."""
    bw = tree.statement(backward_line, cst.SimpleStatementLine) if backward_line else None
    stmt = tree.statement(line, cst.SimpleStatementLine)
    node = bw
    while bw is not None and node in tree.parents and node is not scope:
        node = tree.parents[node]
        if isinstance(node, cst.If) and not tree.inside(stmt, node) and isinstance(node.body, cst.IndentedBlock):
            return node
    return None


def _head(scope) -> int:
    """Index of the first statement after a docstring."""
    body = scope.body.body
    first = body[0] if body else None
    is_doc = isinstance(scope, cst.FunctionDef) and isinstance(first, cst.SimpleStatementLine) and \
        isinstance(first.body[0], cst.Expr) and isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    return 1 if is_doc else 0


def _detaches(stmt, names) -> bool:
    first = code_of(stmt.with_changes(leading_lines=())).strip() if stmt is not None else ""
    return ".detach()" in first and first.startswith((f"{', '.join(names)} = ", f"if {names[0]} is not None:"))


def plain_state(source: str, *, loop_line: int, line: int, names, as_tuple: bool | None = None,
                backward_line: int | None = None) -> bool:
    """True when the state is a tensor known to be set before the loop and is read once per
    backward (not in an unrolled inner loop), so `.detach()` may also be written where it is
    read (callers use this to offer that alternative)."""
    tree = load(source)
    scope, after = _where(tree, line, loop_line, backward_line) if tree else (None, False)
    code = scope and not after and statement_code(tree, scope, line, tuple(names), as_tuple)
    once = bool(code) and tree.enclosing(tree.statement(line, cst.SimpleStatementLine), _SCOPE) is scope
    return once and "tuple(" not in code and not code.startswith("if ")


def detach_state(source: str, *, loop_line: int, line: int, names, as_tuple: bool | None = None,
                 backward_line: int | None = None) -> str | None:
    tree = load(source)
    scope, after = _where(tree, line, loop_line, backward_line) if tree and names else (None, False)
    if scope is None or not isinstance(scope.body, cst.IndentedBlock):
        return None
    code = statement_code(tree, scope, line, tuple(names), as_tuple, after)
    if code is None:
        return None
    new = cst.parse_module(code + "\n").body[0]
    outside = _caller_loop(tree, line, backward_line, names) if after else None
    if outside is not None:  # a method run at every step of a rollout: cut once per backward, by the caller
        loop, receiver = outside
        code = code.replace("self.", receiver + ".")
        names = tuple(receiver + n[len("self"):] for n in names)
        body = list(loop.body.body)
        if _detaches(body[0], names):
            return None
        body.insert(0, cst.parse_module(code + "\n").body[0])
        return tree.replace(loop.body, loop.body.with_changes(body=body))
    if after:
        stmt = tree.statement(line, cst.SimpleStatementLine)
        where = tree.block(stmt)
        if where is None:
            return None
        body = list(where[0].body)
        if where[1] + 1 < len(body) and _detaches(body[where[1] + 1], names):
            return None
        body.insert(where[1] + 1, new)
        return tree.replace(where[0], where[0].with_changes(body=body))
    boundary = _boundary(tree, line, backward_line, scope)
    if boundary is not None:
        body = list(boundary.body.body)
        if _detaches(body[-1], names):
            return None
        return tree.replace(boundary.body, boundary.body.with_changes(body=[*body, new]))
    body, at = list(scope.body.body), _head(scope)
    if at < len(body) and _detaches(body[at], names):
        return None  # already detached at the top (our own line, or the user's)
    body.insert(at, new)
    return tree.replace(scope.body, scope.body.with_changes(body=body))


def _caller_loop(tree, line: int, backward_line: int | None, names):
    """(the loop holding the backward, the object's name) when the update is a method keeping
    `self.<state>` that this loop calls inside an inner loop (`agent.act(obs)` at every step of
    a rollout): detaching right after the update would cut the rollout into single steps, so the
    cut goes at the top of the backward's loop, once per backward, through the object's name."""
    stmt = tree.statement(line, cst.SimpleStatementLine)
    bw = tree.statement(backward_line, cst.SimpleStatementLine) if backward_line else None
    method = stmt and tree.enclosing(stmt, cst.FunctionDef)
    loop = bw and tree.enclosing(bw, LOOP)
    if method is None or loop is None or not isinstance(loop.body, cst.IndentedBlock) \
            or not all(n.startswith("self.") for n in names):
        return None
    receivers = set()
    for call in calls_in(loop):
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == method.name.value and isinstance(func.value, cst.Name):
            inner = tree.enclosing(call, LOOP)
            if inner is loop or inner is None or not tree.inside(inner, loop):
                return None  # called once per backward: right after the update is the same cut
            receivers.add(func.value.value)
    return (loop, receivers.pop()) if len(receivers) == 1 else None
