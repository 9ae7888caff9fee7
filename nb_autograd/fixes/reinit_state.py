"""A module that keeps its recurrent state on itself (`self.hidden`) and also says how that
state starts (`self.hidden = self.init_hidden()` in `__init__`), run on sample after sample
without ever starting again: the tutorial's own loop sets `model.hidden = model.init_hidden()`
before each sample, so each sequence starts fresh and no graph links it to the last one.
Only when the program never calls that method itself: a program that does (once per epoch)
means the state to run on across batches, and the state is detached instead."""
from __future__ import annotations

import ast

import libcst as cst
import libcst.matchers as m

from .cst import LOOP, calls_in, code_of, dotted, load


def _initialiser(cls: cst.ClassDef, attr: str) -> tuple[str, str | None] | None:
    """How `__init__` starts `self.<attr>`: (an expression on `self`, the method it calls),
    from a method (`self.hidden = self.init_hidden()` -> ("self.init_hidden()", "init_hidden"))
    or zeros made from constants and the module's own settings (`self.hidden_cell =
    (torch.zeros(1, 1, self.n), torch.zeros(1, 1, self.n))`, no method)."""
    methods = {f.name.value: f for f in cls.body.body if isinstance(f, cst.FunctionDef)}
    init = methods.get("__init__")
    for node in m.findall(init, m.Assign()) if init else ():
        if [dotted(t.target) for t in node.targets] != [f"self.{attr}"]:
            continue
        if isinstance(node.value, cst.Call) and not node.value.args:
            name = (dotted(node.value.func) or "").removeprefix("self.")
            method = methods.get(name)
            if method is not None and name != "__init__" and len(method.params.params) == 1:
                return f"self.{name}()", name
        zeros = _zeros(node.value)
        if zeros:
            return zeros, None
    return None


def _zeros(value: cst.BaseExpression) -> str | None:
    """`torch.zeros(...)`, or a tuple of them, reading nothing but `torch`, `self` and
    constants: its code, written plainly."""
    parts = [e.value for e in value.elements] if isinstance(value, cst.Tuple) else [value]
    if not all(isinstance(p, cst.Call) and dotted(p.func) == "torch.zeros" for p in parts):
        return None
    expr = ast.parse(code_of(value).strip(), mode="eval")
    names = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
    return ast.unparse(expr) if names <= {"torch", "self"} else None


def _instances(tree, cls: cst.ClassDef) -> set[str]:
    return {dotted(t.target) for node in tree.positions if isinstance(node, cst.Assign)
            and isinstance(node.value, cst.Call) and dotted(node.value.func) == cls.name.value
            for t in node.targets} - {None}


def _where(source: str, line: int, name: str, backward_line: int):
    """(tree, the loop holding the backward, the statement to put at its top), or None."""
    tree = load(source)
    stmt = tree.statement(line, cst.SimpleStatementLine) if tree and name.startswith("self.") else None
    cls = stmt and tree.enclosing(stmt, cst.ClassDef)
    bw = tree.statement(backward_line, cst.SimpleStatementLine) if cls else None
    loop = bw and tree.enclosing(bw, LOOP)
    if loop is None or not isinstance(loop.body, cst.IndentedBlock):
        return None
    attr = name[len("self."):]
    found = _initialiser(cls, attr)
    if found is None:
        return None
    start, method = found
    again = any((dotted(c.func) or "").endswith("." + method) and not tree.inside(c, cls)
                for c in calls_in(tree.module)) if method else _set_outside(tree, cls, attr)
    if again:
        return None  # the program starts the state again itself, when it means to
    called = {dotted(c.func) or "" for c in calls_in(loop)}
    models = sorted(n for n in _instances(tree, cls) if n in called or any(c.startswith(n + ".") for c in called))
    if len(models) != 1:
        return None
    return tree, loop, f"{models[0]}.{attr} = " + start.replace("self.", models[0] + ".")


def _set_outside(tree, cls: cst.ClassDef, attr: str) -> bool:
    """`model.hidden_cell = ...` written by the program outside the class."""
    return any(isinstance(node, cst.Assign) and not tree.inside(node, cls)
               and any((dotted(t.target) or "").endswith("." + attr) for t in node.targets) for node in tree.positions)


def reinit_call(source: str, *, line: int, name: str, backward_line: int) -> str | None:
    """The statement the fix would add (`model.hidden = model.init_hidden()`), if it applies."""
    found = _where(source, line, name, backward_line)
    return found[2] if found else None


def reinit_state(source: str, *, line: int, name: str, backward_line: int) -> str | None:
    found = _where(source, line, name, backward_line)
    if found is None:
        return None
    tree, loop, code = found
    new = cst.parse_statement(code + "\n")
    body = list(loop.body.body)
    return tree.replace(loop.body, loop.body.with_changes(body=[new, *body]))
