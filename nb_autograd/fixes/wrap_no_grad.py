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


def _only_names(stmt: cst.CSTNode) -> bool:
    """`best = out`, `target = self.feats`, `t = acts['conv1']`: the statement computes nothing,
    so under no_grad it binds the same tensor with the same graph (a detach is the fix there)."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    value = getattr(small, "value", None) if isinstance(small, (cst.Assign, cst.AnnAssign)) else None

    def reference(node) -> bool:
        if isinstance(node, (cst.Name, cst.Attribute)):
            return True
        if isinstance(node, (cst.Tuple, cst.List)):
            return all(reference(e.value) for e in node.elements)
        return isinstance(node, cst.Subscript) and reference(node.value) and all(  # a dict's entry by its key
            isinstance(getattr(e.slice, "value", None), cst.SimpleString) for e in node.slice)
    return value is not None and reference(value)


def wrap_no_grad(source: str, *, line: int) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line, STATEMENT)
    if stmt is None or _is_no_grad(stmt) or _only_names(stmt):
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
