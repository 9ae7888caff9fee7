"""Small readings of one syntax node (a dotted name, what an expression reads, whether it is
detached), shared by the code reader and the error evidence."""
from __future__ import annotations

import ast

from .cuts import DETACHING


def dotted(node: ast.AST) -> str | None:
    """`a`, `a.b.c`; for subscripts the container (`temp[0]` -> `temp`)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value) if isinstance(node.value, (ast.Name, ast.Attribute)) else None
        return f"{base}.{node.attr}" if base else None
    if isinstance(node, ast.Subscript):
        return dotted(node.value)
    if isinstance(node, ast.Starred):
        return dotted(node.value)
    return None


def names_read(node: ast.AST) -> frozenset[str]:
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Name, ast.Attribute)) and isinstance(getattr(sub, "ctx", None), ast.Load):
            name = dotted(sub)
            while name:
                out.add(name)
                name = name.rpartition(".")[0]
        elif isinstance(sub, ast.Subscript) and isinstance(sub.ctx, ast.Load) and keyed(sub):
            out.add(keyed(sub))
    return frozenset(out)


def keyed(node: ast.AST) -> str | None:
    """`meter['total']`, `totals[k]`: a subscript by a constant or a plain name reads like a
    name of its own, so a dict slot can be assigned, accumulated and carried."""
    if not isinstance(node, ast.Subscript) or not dotted(node.value):
        return None
    if isinstance(node.slice, ast.Constant):
        return f"{dotted(node.value)}[{node.slice.value!r}]"
    if isinstance(node.slice, ast.Name):
        return f"{dotted(node.value)}[{node.slice.id}]"
    return None


def target_names(node: ast.AST) -> list[str]:
    if isinstance(node, (ast.Tuple, ast.List)):
        return [n for elt in node.elts for n in target_names(elt)]
    if isinstance(node, (ast.Name, ast.Attribute, ast.Starred)):
        name = dotted(node)
        return [name] if name else []
    name = keyed(node)
    return [name] if name else []


def is_detached(value: ast.AST) -> bool:
    if isinstance(value, (ast.Tuple, ast.List)) and value.elts:  # `(h.detach(), c.detach())`
        return all(is_detached(e) for e in value.elts)
    if isinstance(value, ast.IfExp):  # `(o.detach() for o in out) if is_listy(out) else out.detach()`
        return is_detached(value.body) and is_detached(value.orelse)
    if isinstance(value, (ast.GeneratorExp, ast.ListComp)):
        return is_detached(value.elt)
    while isinstance(value, ast.Call):
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr in DETACHING:
            return True
        if isinstance(func, ast.Name) and func.id in {"float", "int"}:
            return True
        value = func.value if isinstance(func, ast.Attribute) else None
    return isinstance(value, ast.Attribute) and value.attr == "data"


def add_operands(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        return add_operands(node.left) + add_operands(node.right)
    return [node]


def short_text(node: ast.AST, limit: int = 40) -> str:
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def const_text(node: ast.AST) -> str:
    return repr(node.value) if isinstance(node, ast.Constant) else ast.unparse(node)


MOVES = frozenset(("to", "cuda", "cpu", "double", "float", "half", "bfloat16", "type"))


def unmoved(call: ast.Call) -> ast.Call:
    """The call a device or dtype move is applied to (`Net(d).to(device)` -> `Net(d)`,
    `torch.zeros(n).cuda()` -> `torch.zeros(n)`): what made the value."""
    while isinstance(call.func, ast.Attribute) and call.func.attr in MOVES and isinstance(call.func.value, ast.Call):
        call = call.func.value
    return call
