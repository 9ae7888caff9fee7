"""`with torch.inference_mode():` made a tensor that training then reads: inference tensors can
never be saved for backward, even by a layer that only needs them as inputs. Under
`torch.no_grad()` the same values are plain tensors without a graph, which a trained head
may read (the frozen part still gets no gradient)."""
from __future__ import annotations

import libcst as cst

from .cst import load


def no_grad_for_inference(source: str, *, with_line: int) -> str | None:
    """`with_line`: the `with` statement, or a helper's `@torch.inference_mode()` decorator."""
    tree = load(source)
    block = tree and tree.statement(with_line, cst.With)
    if block is None:
        return _decorator(tree, with_line) if tree else None
    items = []
    for item in block.items:
        call = item.item
        func = call.func if isinstance(call, cst.Call) else None
        if isinstance(func, cst.Attribute) and func.attr.value == "inference_mode" and not call.args:
            item = item.with_changes(item=call.with_changes(func=func.with_changes(attr=cst.Name("no_grad"))))
        items.append(item)
    new = block.with_changes(items=items)
    return None if new.deep_equals(block) else tree.replace(block, new)


def _decorator(tree, line: int) -> str | None:
    for node, pos in tree.positions.items():
        call = node.decorator if isinstance(node, cst.Decorator) and pos.start.line == line else None
        func = call.func if isinstance(call, cst.Call) else None
        if isinstance(func, cst.Attribute) and func.attr.value == "inference_mode" and not call.args:
            return tree.replace(call, call.with_changes(func=func.with_changes(attr=cst.Name("no_grad"))))
    return None
