"""A module keeps state on itself (a spiking neuron's membrane) and carries the previous
batch's graph into the next one. Call the program's own reset after each optimizer step
(`reset(net)`, `functional.reset_net(model)`): each batch then starts fresh, as the library
means it to. Without one, detach the state on every submodule that holds it: the values
stay and only the old graph is cut (truncated backpropagation through time)."""
from __future__ import annotations

import libcst as cst

from .cst import after_update, load, with_body


def _resets_modules(fn: cst.FunctionDef) -> bool:
    """One parameter, and the body walks `.modules()` or calls a reset on what it gets."""
    params = [p for p in fn.params.params if p.name.value != "self"]
    body = cst.Module(body=[fn]).code
    return len(params) == 1 and (".modules()" in body or ".reset" in body)


def reset_call(source: str, model: str) -> str | None:
    """`reset(net)` or `functional.reset_net(net)` when the program defines such a function."""
    tree = load(source)
    if tree is None:
        return None
    for stmt in tree.module.body:
        if isinstance(stmt, cst.FunctionDef) and "reset" in stmt.name.value and _resets_modules(stmt):
            return f"{stmt.name.value}({model})"
        if isinstance(stmt, cst.ClassDef):
            for inner in stmt.body.body:
                static = isinstance(inner, cst.FunctionDef) and any(
                    getattr(d.decorator, "value", None) == "staticmethod" for d in inner.decorators)
                if static and "reset" in inner.name.value and _resets_modules(inner):
                    return f"{stmt.name.value}.{inner.name.value}({model})"
    return None


def reset_module_state(source: str, *, backward_line: int, model: str, attr: str, detach: bool = False) -> str | None:
    tree = load(source)
    update = after_update(tree, backward_line)
    if update is None:
        return None
    call = None if detach else reset_call(source, model)
    if call is None and not detach:
        return None
    block, _, end = update
    body = list(block.body)
    code = f"{call}\n" if call else (
        f"for _module in {model}.modules():\n"
        f"    if isinstance(getattr(_module, {attr!r}, None), torch.Tensor):\n"
        f"        _module.{attr} = _module.{attr}.detach()\n")
    new = cst.parse_statement(code)
    if any(stmt.deep_equals(new) for stmt in body):
        return None  # already there
    return with_body(tree, block, [*body[:end], new, *body[end:]])
