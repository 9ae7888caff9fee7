"""A value stored on an object under a name given as a string (`setattr(obj, "x", v)`,
`self.register_buffer("x", v)`, a helper such as `self.tmp_store("x", v)`): an attribute
write as much as `self.x = v`. One definition, read by the evidence and by the fixes that
detach such a store."""
from __future__ import annotations

import ast
import re

STORING = re.compile(r"register_buffer|store|cache|save|set|put", re.I)  # methods of `self` that store by name


def named_store(node: ast.Call, receiver: str | None) -> tuple[ast.AST, str, ast.AST] | None:
    """(the object, the attribute's name, the value) of such a call, else None."""
    args = node.args
    if isinstance(node.func, ast.Name) and node.func.id == "setattr" and len(args) == 3:
        obj, key, value = args
    elif receiver == "self" and len(args) >= 2 and STORING.search(node.func.attr):
        obj, key, value = node.func.value, args[0], args[1]
    else:
        return None
    if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.isidentifier():
        return obj, key.value, value
    return None
