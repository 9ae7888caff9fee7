"""Replace an in-place write at one line by its out-of-place form, so the tensor autograd
saved keeps its version: `y += z` -> `y = y + z`, `x.add_(1)` -> `x = x.add(1)`,
`relu(inplace=True)` -> `relu()`, `x[0] = v` -> `x = x.clone()` first."""
from __future__ import annotations

import libcst as cst

from .line_edit import BodyEditor, LineTransformer, index_at, statement, transform

_BINARY = {
    cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide, cst.PowerAssign: cst.Power, cst.FloorDivideAssign: cst.FloorDivide,
    cst.ModuloAssign: cst.Modulo, cst.MatrixMultiplyAssign: cst.MatrixMultiply,
}


def _outplace_name(name: str) -> str:
    return name[:-1] if name.endswith("_") and not name.endswith("__") else name


class _OutOfPlace(LineTransformer):
    def __init__(self, line: int):
        super().__init__()
        self.target = line

    def leave_SimpleStatementLine(self, original, updated):
        if self.line(original) != self.target:
            return updated
        body = []
        for before, small in zip(original.body, updated.body):
            if isinstance(small, cst.AugAssign) and type(small.operator) in _BINARY \
                    and isinstance(small.target, (cst.Name, cst.Attribute)):
                op = _BINARY[type(small.operator)]()
                value = cst.BinaryOperation(small.target, op, small.value)
                small = cst.Assign([cst.AssignTarget(small.target)], value)
            elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and _trailing_underscore(before):
                small = self._expr_call(small)
            body.append(small)
        return updated.with_changes(body=body)

    def _expr_call(self, small: cst.Expr):
        """A bare `x.add_(1)` / `torch.relu_(x)` statement (already renamed by leave_Call)
        becomes an assignment to x."""
        call = small.value
        owner = call.func.value if isinstance(call.func, cst.Attribute) else None
        if isinstance(owner, (cst.Name, cst.Attribute)) and not _is_module(owner):
            return cst.Assign([cst.AssignTarget(owner)], call)
        if call.args and isinstance(call.args[0].value, (cst.Name, cst.Attribute)):
            return cst.Assign([cst.AssignTarget(call.args[0].value)], call)
        return small

    def leave_Call(self, original, updated):
        if not (self.line(original) <= self.target <= self.end_line(original)):
            return updated
        args = [a for a in updated.args if not (a.keyword and a.keyword.value == "inplace")]
        if len(args) != len(updated.args):
            if args:
                args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return updated.with_changes(args=args)
        func = updated.func
        if self.line(original) == self.target and isinstance(func, cst.Attribute) \
                and func.attr.value.endswith("_") and not func.attr.value.endswith("__"):
            return updated.with_changes(func=func.with_changes(attr=cst.Name(_outplace_name(func.attr.value))))
        return updated


def _trailing_underscore(small) -> bool:
    func = small.value.func if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) else None
    return isinstance(func, cst.Attribute) and func.attr.value.endswith("_") and not func.attr.value.endswith("__")


def _is_module(node) -> bool:
    return isinstance(node, cst.Name) and node.value in {"torch", "F", "nn", "init", "np"}


def out_of_place(source: str, line: int) -> str | None:
    return transform(source, _OutOfPlace(line))


def clone_before_write(source: str, line: int, name: str) -> str | None:
    """`x[0] = v` at `line` -> `x = x.clone()` just before it (the saved `x` stays intact)."""

    def edit(stmts, lines):
        i = index_at(lines, line)
        if i is None:
            return None
        return stmts[:i] + [statement(f"{name} = {name}.clone()\n")] + stmts[i:]

    return transform(source, BodyEditor(edit))
