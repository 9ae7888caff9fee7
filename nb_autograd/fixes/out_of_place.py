"""Replace an in-place write at one line by its out-of-place form, so the tensor autograd
saved keeps its version: `y += z` -> `y = y + z` (`xs[i] += z` -> `xs[i] = xs[i] + z` for a list), `x.add_(1)` -> `x = x.add(1)`,
`relu(inplace=True)` -> `relu()` (with every_flag, at every call in the source: the
in-place layers of a model are switched off together, which changes no value). With twins,
the same augmented assignment written elsewhere (`x += connection` in the encoder and the
decoder blocks) changes too: it would fail next, and the out-of-place form computes the same."""
from __future__ import annotations

import libcst as cst

from .cst import Tree, code_of, load

_BINARY = {
    cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide, cst.PowerAssign: cst.Power, cst.FloorDivideAssign: cst.FloorDivide,
    cst.ModuloAssign: cst.Modulo, cst.MatrixMultiplyAssign: cst.MatrixMultiply,
}


def _outplace_name(name: str) -> str:
    return name[:-1] if name.endswith("_") and not name.endswith("__") else name


class _OutOfPlace(cst.CSTTransformer):
    def __init__(self, tree: Tree, line: int, every_flag: bool = False, twins: bool = False, also=()):
        super().__init__()
        self.tree, self.every_flag, self.lines = tree, every_flag, {line, *also}
        stmt = tree.statement(line, cst.SimpleStatementLine) if twins else None
        self.twin = code_of(stmt).strip() if stmt is not None and all(isinstance(s, cst.AugAssign) for s in stmt.body) else None

    def leave_SimpleStatementLine(self, original, updated):
        if self.tree.line(original) not in self.lines and (self.twin is None or code_of(original).strip() != self.twin):
            return updated
        body = []
        for before, small in zip(original.body, updated.body):
            if isinstance(small, cst.AugAssign) and type(small.operator) in _BINARY \
                    and isinstance(small.target, (cst.Name, cst.Attribute, cst.Subscript)):  # an element of a list too
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
        span = self.tree.positions[original]
        here = any(span.start.line <= line <= span.end.line for line in self.lines)
        if not here and not self.every_flag:
            return updated
        args = [a for a in updated.args if not (a.keyword and a.keyword.value == "inplace")]
        if not here:  # every_flag: only `inplace=True` elsewhere
            if len(args) == len(updated.args) or not any(a.keyword and a.keyword.value == "inplace"
                                                         and isinstance(a.value, cst.Name) and a.value.value == "True"
                                                         for a in updated.args):
                return updated
        if len(args) != len(updated.args):
            if args:
                args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return updated.with_changes(args=args)
        func = updated.func
        if span.start.line in self.lines and isinstance(func, cst.Attribute) \
                and func.attr.value.endswith("_") and not func.attr.value.endswith("__"):
            return updated.with_changes(func=func.with_changes(attr=cst.Name(_outplace_name(func.attr.value))))
        return updated


def _trailing_underscore(small) -> bool:
    func = small.value.func if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) else None
    return isinstance(func, cst.Attribute) and func.attr.value.endswith("_") and not func.attr.value.endswith("__")


def _is_module(node) -> bool:
    return isinstance(node, cst.Name) and node.value in {"torch", "F", "nn", "init", "np"}


def out_of_place(source: str, line: int, every_flag: bool = False, twins: bool = False, also=()) -> str | None:
    """`also`: the lines of the other writes into the same saved tensor (`widths /= s` and
    `heights /= s` on two slices of one output), changed together."""
    tree = load(source)
    return tree and tree.rewrite(_OutOfPlace(tree, line, every_flag, twins, also))
