"""Truncated backpropagation through time: at the top of the loop body, cut the recurrent
state from the previous batch's graph (`h = h.detach()`, `h, c = h.detach(), c.detach()`,
`hidden = tuple(s.detach() for s in hidden)` for an LSTM's (h, c) pair)."""
from __future__ import annotations

import re

import libcst as cst

from .cst import LOOP, calls_in, code_of, dotted, load

_TUPLE_STATE = re.compile(r"lstm", re.I)
_TENSOR_STATE = re.compile(r"rnn|gru|cell", re.I)


def _assignments(tree, name: str):
    """Values assigned to `name` anywhere (plain `name = value` only)."""
    for node in tree.positions:
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and dotted(node.targets[0].target) == name:
            yield node.value


def statement_code(tree, loop, line: int, names, as_tuple: bool | None = None) -> str | None:
    """The line to insert: a tuple state (as seen at run time, else guessed from the code: an
    LSTM's or a tuple literal), a state that starts as None, or a plain tensor."""
    stmt = tree.statement(line, cst.SimpleStatementLine)
    if stmt is None or not tree.inside(stmt, loop):
        return None
    if len(names) > 1:
        return f"{', '.join(names)} = {', '.join(f'{n}.detach()' for n in names)}"
    name = names[0]
    callees = [dotted(c.func) or "" for c in calls_in(stmt)]
    values = [v for v in _assignments(tree, name) if not tree.inside(v, loop)]
    if as_tuple is None and (any(_TUPLE_STATE.search(c) for c in callees) or any(isinstance(v, cst.Tuple) for v in values)):
        as_tuple = True
    if as_tuple:
        return f"{name} = tuple(s.detach() for s in {name})"
    if as_tuple is None and not any(_TENSOR_STATE.search(c) for c in callees):  # a user's model: either
        return f"{name} = tuple(s.detach() for s in {name}) if isinstance({name}, tuple) else {name}.detach()"
    if any(isinstance(v, cst.Name) and v.value == "None" for v in values):
        return f"if {name} is not None:\n    {name} = {name}.detach()"
    return f"{name} = {name}.detach()"


def plain_state(source: str, *, loop_line: int, line: int, names, as_tuple: bool | None = None) -> bool:
    """True when the state is a tensor known to be set before the loop, so `.detach()` may
    also be written where it is read (callers use this to offer that alternative)."""
    tree = load(source)
    loop = tree and tree.statement(loop_line, LOOP)
    code = loop and statement_code(tree, loop, line, tuple(names), as_tuple)
    return bool(code) and "tuple(" not in code and not code.startswith("if ")


def detach_state(source: str, *, loop_line: int, line: int, names, as_tuple: bool | None = None) -> str | None:
    tree = load(source)
    loop = tree and tree.statement(loop_line, LOOP)
    if loop is None or not isinstance(loop.body, cst.IndentedBlock) or not names:
        return None
    body = list(loop.body.body)
    first = code_of(body[0].with_changes(leading_lines=())).strip() if body else ""
    if ".detach()" in first and first.startswith((f"{', '.join(names)} = ", f"if {names[0]} is not None:")):
        return None  # already detached at the top (our own line, or the user's)
    code = statement_code(tree, loop, line, tuple(names), as_tuple)
    if code is None:
        return None
    new = cst.parse_module(code + "\n").body[0]
    return tree.replace(loop.body, loop.body.with_changes(body=[new, *body]))
