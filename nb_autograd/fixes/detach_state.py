"""Truncated backpropagation through time: cut the recurrent state from the previous batch's
graph once per backward (`h = h.detach()`, `h, c = h.detach(), c.detach()`,
`hidden = tuple(s.detach() for s in hidden)` for an LSTM's (h, c) pair), guarded by
`if hidden is not None:` when the state starts as None (the module then makes zeros).

Where: at the top of the innermost loop or function body that holds both the state update and
the backward (a loop over batches; a train_step(h) helper; a chunk method whose inner loop
unrolls time steps, which must stay connected). When the update sits in a function the loop
calls and the backward outside it (a forward() that keeps `self.hidden`), right after the update,
or after the loop over time steps inside that function that holds it, and after the last
statement there that still reads the state (a state returned as it is, `return out, self.hidden`,
is cut before the return; an output computed from the state, `return self.h2o(self.hidden)`,
has it cut at the top of the function instead, before this call's own steps).
When the backward runs only every k steps (`if (t + 1) % k == 0:`), the truncation boundary is
that block: the state is cut at its end, so the k steps in between stay connected."""
from __future__ import annotations

import re

import libcst as cst

from .add_detach import items_detached
from .cst import LOOP, calls_in, code_of, dotted, facts_of, load, reads_of

_TUPLE_STATE = re.compile(r"lstm", re.I)
_TENSOR_STATE = re.compile(r"rnn|gru|cell", re.I)
_SCOPE = (*LOOP, cst.FunctionDef)


def _assignments(tree, name: str):
    """Values assigned to `name` anywhere (plain `name = value` only)."""
    for node in tree.positions:
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and dotted(node.targets[0].target) == name:
            yield node.value


def statement_code(tree, scope, line: int, names, as_tuple: bool | str | None = None, after: bool = False) -> str | None:
    """The line to insert: a tuple state (as seen at run time, else guessed from the code: an
    LSTM's or a tuple literal), a state that starts as None, or a plain tensor. `as_tuple` may
    also say how the runtime saw the state held ("namedtuple", "dict>tuple"), kept as it was,
    or give that for each name (a tuple of kinds, "" for a tensor)."""
    stmt = tree.statement(line, cst.SimpleStatementLine)
    if stmt is None or not tree.inside(stmt, scope):
        return None
    if isinstance(as_tuple, tuple):  # one kind per name, as the runtime saw each ("" for a tensor)
        kinds = as_tuple
    else:
        kinds = (as_tuple if isinstance(as_tuple, str) else "tuple" if as_tuple else "",) * len(names)
    if len(names) > 1 or isinstance(as_tuple, tuple):  # several states (an LSTM per layer, an object's attributes)
        values = [items_detached(n, k) if k else f"{n}.detach()" for n, k in zip(names, kinds)]
        if None in values:
            return None
        line = f"{', '.join(names)} = {', '.join(values)}"
        return line if len(line) <= 100 else f"{', '.join(names)} = (\n" + "".join(f"    {v},\n" for v in values) + ")"
    name = names[0]
    helper = _own_helper(tree)
    callees = [dotted(c.func) or "" for c in calls_in(stmt)]
    values = [v for v in _assignments(tree, name) if not tree.inside(v, scope)]
    if as_tuple is None and (any(_TUPLE_STATE.search(c) for c in callees) or any(isinstance(v, cst.Tuple) for v in values)):
        as_tuple = True
    if helper is not None:  # the program's own `repackage_hidden(h)`: it knows how the state nests
        code = f"{name} = {helper}({name})"
    elif isinstance(as_tuple, str):  # seen at run time: a NamedTuple state, a dict of (h, c) pairs ...
        code = f"{name} = {items_detached(name, as_tuple)}"
    elif as_tuple:
        code = f"{name} = tuple(s.detach() for s in {name})"
    elif as_tuple is None and not any(_TENSOR_STATE.search(c) for c in callees):  # a user's model: either
        code = f"{name} = tuple(s.detach() for s in {name}) if isinstance({name}, tuple) else {name}.detach()"
    else:
        code = f"{name} = {name}.detach()"
    if not after and any(isinstance(v, cst.Name) and v.value == "None" for v in values):
        return f"if {name} is not None:\n    {code}"  # the first batch starts with no state
    return code


_HELPER = re.compile(r"^(repackage_hidden|repackage_state|detach_hidden|detach_state|repackage)$")


def _own_helper(tree) -> str | None:
    """A one-argument function of the program written to detach a state however it nests
    (word_language_model's and ON-LSTM's `repackage_hidden`)."""
    for node in tree.positions:
        if isinstance(node, cst.FunctionDef) and _HELPER.match(node.name.value) and len(node.params.params) == 1:
            return node.name.value
    return None


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


def _past_initialisation(body: list, at: int, names) -> int:
    """Below an `if done: h = zeros(...)` that starts the state again before anything reads it:
    above it the state may not exist yet (the first run of the cell)."""
    for i in range(at, len(body)):
        facts = facts_of([body[i]])
        if set(names) & {n for n, _ in facts.reads}:
            break
        if isinstance(body[i], cst.If) and set(names) & {t for a in facts.assigns for t in a.targets}:
            at = i + 1
    return at


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
        stmt = _outermost_in_function(tree, tree.statement(line, cst.SimpleStatementLine))
        where = tree.block(stmt)
        if where is None:
            return None
        body = list(where[0].body)
        at = _after_last_read(body, where[1], names)
        if at is None:  # the output is computed from the state: cut it where this call starts
            at = _head_of(stmt, tree, where)
        if at is None or at < len(body) and _detaches(body[at], names):
            return None
        body.insert(at, new)
        return tree.replace(where[0], where[0].with_changes(body=body))
    boundary = _boundary(tree, line, backward_line, scope)
    if boundary is not None:
        body = list(boundary.body.body)
        if _detaches(body[-1], names):
            return None
        return tree.replace(boundary.body, boundary.body.with_changes(body=[*body, new]))
    body = list(scope.body.body)
    at = _past_initialisation(body, _head(scope), names)
    if at < len(body) and _detaches(body[at], names):
        return None  # already detached at the top (our own line, or the user's)
    body.insert(at, new)
    return tree.replace(scope.body, scope.body.with_changes(body=body))


def _after_last_read(body: list, index: int, names) -> int | None:
    """Where the cut goes in `body` after the update at `index`: after the last statement that
    still reads the state (`out = self.h_o(self.h)`: cut before it and this batch's output
    would stop its gradient there). None when the return statement itself reads it."""
    at = index + 1
    for i in range(index + 1, len(body)):
        if _detaches(body[i], names):
            return i  # the cut is there already
        if reads_of(body[i], set(names)):
            returns = [s for s in getattr(body[i], "body", ()) if isinstance(s, cst.Return)]
            if returns:  # `return out, self.hidden` hands the state back as it is: cut before it
                return at if _returns_state_as_is(returns[0], names) else None
            at = i + 1
    return at


def _head_of(stmt, tree, where) -> int | None:
    """The top of the function body `where` is (after a docstring), else None."""
    func = tree.enclosing(stmt, cst.FunctionDef)
    return _head(func) if func is not None and where[0] is func.body else None


def _returns_state_as_is(ret: cst.Return, names) -> bool:
    values = ret.value.elements if isinstance(ret.value, cst.Tuple) else [ret.value]
    rest = [e for e in values if (dotted(getattr(e, "value", e)) or "") not in names]
    return len(rest) < len(values) and not any(reads_of(getattr(e, "value", e), set(names)) for e in rest)


def _outermost_in_function(tree, stmt):
    """The statement of the update's function body that holds it: a loop over time steps
    inside forward() stays connected, and the state is cut after that loop."""
    func = tree.enclosing(stmt, cst.FunctionDef) if stmt is not None else None
    node = stmt
    while func is not None and node in tree.parents and (tree.block(node) or (None,))[0] is not func.body:
        node = tree.parents[node]
    return node if func is not None and (tree.block(node) or (None,))[0] is func.body else stmt


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
