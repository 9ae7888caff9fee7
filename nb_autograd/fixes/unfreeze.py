"""Turn gradient tracking back on where it was turned off for parameters (`p.requires_grad =
False` -> `True`, `model.requires_grad_(False)` -> `(True)`). Flipped rather than deleted: in a
live kernel the parameters are already frozen by the earlier run, and re-running the cell
must unfreeze them."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, load


class _Flip(cst.CSTTransformer):
    def leave_Assign(self, original, updated):
        if any(isinstance(t.target, cst.Attribute) and t.target.attr.value == "requires_grad" for t in updated.targets) \
                and isinstance(updated.value, cst.Name) and updated.value.value == "False":
            return updated.with_changes(value=cst.Name("True"))
        return updated

    def leave_Call(self, original, updated):
        if isinstance(updated.func, cst.Attribute) and updated.func.attr.value == "requires_grad_" and updated.args \
                and isinstance(updated.args[0].value, cst.Name) and updated.args[0].value.value == "False":
            return updated.with_changes(args=[updated.args[0].with_changes(value=cst.Name("True")), *updated.args[1:]])
        return updated


def unfreeze(source: str, line: int) -> str | None:
    tree = load(source)
    target = tree and tree.statement(line)
    if target is None or "requires_grad" not in code_of(target):
        return None  # only ever the freezing statement itself
    flipped = target.visit(_Flip())
    return None if flipped.deep_equals(target) else tree.replace(target, flipped)
