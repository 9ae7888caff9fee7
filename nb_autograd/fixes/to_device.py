"""Put a tensor (or model) on the device the rest of the computation uses: `x` ->
`x.to(device)` where it is used, `Net()` -> `Net().to(device)` where it is built, and a
discarded `x.to(device)` statement -> `x = x.to(device)` (Tensor.to is not in place)."""
from __future__ import annotations

import libcst as cst

from .line_edit import LineTransformer, transform


def _code(node) -> str:
    return cst.Module([]).code_for_node(node)


class _ToDevice(LineTransformer):
    def __init__(self, line: int, name: str, device: str):
        super().__init__()
        self.target, self.name, self.device = line, name, device

    def _moved(self, expr):
        if self.device == "cuda":
            return cst.parse_expression(f"{_code(expr)}.cuda()")
        return cst.Call(cst.Attribute(expr, cst.Name("to")), [cst.Arg(cst.parse_expression(self.device))])

    def leave_Arg(self, original, updated):
        if self.line(original) == self.target and _code(updated.value) == self.name:
            return updated.with_changes(value=self._moved(updated.value))
        return updated

    def leave_BinaryOperation(self, original, updated):
        if self.line(original) != self.target:
            return updated
        if _code(updated.left) == self.name:
            updated = updated.with_changes(left=self._moved(updated.left))
        if _code(updated.right) == self.name:
            updated = updated.with_changes(right=self._moved(updated.right))
        return updated


class _MoveAtCreation(LineTransformer):
    def __init__(self, line: int, device: str):
        super().__init__()
        self.target, self.device = line, device

    def leave_Assign(self, original, updated):
        if self.line(original) != self.target:
            return updated
        return updated.with_changes(value=cst.parse_expression(f"{_code(updated.value)}.to({self.device})"))

    def leave_SimpleStatementLine(self, original, updated):
        if self.line(original) != self.target:
            return updated
        body = []
        for small in updated.body:
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) \
                    and isinstance(small.value.func, cst.Attribute):
                small = cst.Assign([cst.AssignTarget(small.value.func.value)], small.value)
            body.append(small)
        return updated.with_changes(body=body)


def to_device_at_use(source: str, line: int, name: str, device: str) -> str | None:
    return transform(source, _ToDevice(line, name, device))


def to_device_at_creation(source: str, line: int, device: str) -> str | None:
    """`line` is an assignment (`model = Net()`) or a discarded move (`x.to(device)`)."""
    return transform(source, _MoveAtCreation(line, device))
