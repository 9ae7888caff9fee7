"""A total declared `global` in the function that grows and backpropagates it, initialised once
outside (`loss = torch.Tensor([0])` in a set-up cell, `global loss` in `train()`): the function
starts its own total at each call instead, a local again (the initialisation copied to the top
of its body, the name taken out of the `global` statement). The outer initialisation stays: it
no longer matters."""
from __future__ import annotations

import libcst as cst

from .cst import dotted, load, only_small, with_body


def reset_in_function(source: str, *, name: str, init_line: int, function_line: int) -> str | None:
    tree = load(source)
    init = tree and tree.statement(init_line, cst.SimpleStatementLine)
    assign = only_small(init, cst.Assign)
    fn = tree and tree.statement(function_line, cst.FunctionDef)
    if assign is None or fn is None or len(assign.targets) != 1 or dotted(assign.targets[0].target) != name \
            or not isinstance(fn.body, cst.IndentedBlock):
        return None
    body, found = [], False
    for st in fn.body.body:
        small = only_small(st, cst.Global) if isinstance(st, cst.SimpleStatementLine) else None
        if small is not None and any(n.name.value == name for n in small.names):
            found = True
            rest = [n.name.value for n in small.names if n.name.value != name]
            if rest:
                body.append(st.with_changes(body=[cst.Global([cst.NameItem(cst.Name(n)) for n in rest])]))
            body.append(init.with_changes(leading_lines=()))
            continue
        body.append(st)
    return with_body(tree, fn.body, body) if found else None
