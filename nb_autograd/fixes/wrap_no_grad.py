"""Wrap the statement at a line in `with torch.no_grad():` — a value that needs no gradient
then builds no graph, so no later backward can reach a freed one through it."""
from __future__ import annotations

import libcst as cst

from .cst import STATEMENT, dotted, expr, load
from ..evidence.cuts import NO_GRAD_MODES

_MODES = NO_GRAD_MODES


def _torch_alias(module: cst.Module) -> str | None:
    found = []

    class _Imports(cst.CSTVisitor):
        def visit_Import(self, node):
            for alias in node.names:
                if dotted(alias.name) == "torch":
                    found.append(alias.asname.name.value if alias.asname else "torch")

    used = []

    class _Reads(cst.CSTVisitor):
        def visit_ImportFrom(self, node):
            return False  # `from torch.nn import F` binds no `torch`

        def visit_Attribute(self, node):
            if isinstance(node.value, cst.Name) and node.value.value == "torch":
                used.append(node)

    module.visit(_Imports())
    if not found:  # torch may come in through a star import (`from torch_snippets import *`): used as a name
        module.visit(_Reads())
    return found[0] if found else "torch" if used else None


def _is_no_grad(node: cst.CSTNode) -> bool:
    if not isinstance(node, cst.With):
        return False
    for item in node.items:
        call = item.item
        name = dotted(call.func if isinstance(call, cst.Call) else call) or ""
        if name.rpartition(".")[2] in _MODES:
            return True
    return False


def wrap_no_grad(source: str, *, line: int) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line, STATEMENT)
    if stmt is None or _is_no_grad(stmt):
        return None
    node = stmt
    while node in tree.parents:
        node = tree.parents[node]
        if _is_no_grad(node):
            return None
    torch = _torch_alias(tree.module)
    where = tree.block(stmt)
    if torch is None or where is None:
        return None
    wrapped = cst.With(items=[cst.WithItem(expr(f"{torch}.no_grad()"))],
                       body=cst.IndentedBlock(body=[stmt.with_changes(leading_lines=())]),
                       leading_lines=stmt.leading_lines)
    return tree.replace(stmt, wrapped)
