"""Put a tensor (or model) on the device the rest of the computation uses: `x` ->
`x.to(device)` where it is used, `Net()` -> `Net().to(device)` where it is built, and a
discarded `x.to(device)` statement -> `x = x.to(device)` (Tensor.to is not in place)."""
from __future__ import annotations

import libcst as cst

from .cst import Tree, code_of, load


class _ToDevice(cst.CSTTransformer):
    def __init__(self, tree: Tree, line: int, name: str, device: str):
        super().__init__()
        self.tree, self.target, self.name, self.device = tree, line, name, device

    def _moved(self, expr):
        if self.device == "cuda":
            return cst.parse_expression(f"{code_of(expr)}.cuda()")
        return cst.Call(cst.Attribute(expr, cst.Name("to")), [cst.Arg(cst.parse_expression(self.device))])

    def leave_Arg(self, original, updated):
        if self.tree.line(original) == self.target and code_of(updated.value) == self.name:
            return updated.with_changes(value=self._moved(updated.value))
        return updated

    def leave_BinaryOperation(self, original, updated):
        if self.tree.line(original) != self.target:
            return updated
        if code_of(updated.left) == self.name:
            updated = updated.with_changes(left=self._moved(updated.left))
        if code_of(updated.right) == self.name:
            updated = updated.with_changes(right=self._moved(updated.right))
        return updated


class _MoveAtCreation(cst.CSTTransformer):
    def __init__(self, tree: Tree, line: int, device: str):
        super().__init__()
        self.tree, self.target, self.device = tree, line, device

    def leave_Assign(self, original, updated):
        moved = f"{code_of(updated.value)}.to({self.device})"
        if self.tree.line(original) != self.target or code_of(updated.value).endswith(f".to({self.device})"):
            return updated
        return updated.with_changes(value=cst.parse_expression(moved))

    def leave_SimpleStatementLine(self, original, updated):
        if self.tree.line(original) != self.target:
            return updated
        body = []
        for small in updated.body:
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) \
                    and isinstance(small.value.func, cst.Attribute):
                small = cst.Assign([cst.AssignTarget(small.value.func.value)], small.value)
            body.append(small)
        return updated.with_changes(body=body)


def to_device(source: str, line: int, device: str, name: str = "") -> str | None:
    """With `name`: move that tensor where it is used at `line`; without: move the value
    assigned at `line` (`model = Net()`), or keep a discarded move (`x.to(device)`)."""
    tree = load(source)
    if tree is None:
        return None
    return tree.rewrite(_ToDevice(tree, line, name, device) if name else _MoveAtCreation(tree, line, device))
