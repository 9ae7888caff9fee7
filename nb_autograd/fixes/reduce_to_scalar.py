"""backward() with no `gradient` needs a scalar: reduce the tensor first (`.mean()` for a
per-element loss, matching the default `reduction='mean'`; `.sum()` for a plain output, so
each element gets d(sum)/dx), or pass `gradient=` explicitly."""
from __future__ import annotations

import libcst as cst

from .line_edit import LineTransformer, transform


def _reduced(expr: cst.BaseExpression, how: str) -> cst.BaseExpression:
    if not isinstance(expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        expr = expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Call(cst.Attribute(expr, cst.Name(how)))


class _Reduce(LineTransformer):
    def __init__(self, line: int, how: str):
        super().__init__()
        self.target, self.how, self.done = line, how, False

    def leave_Call(self, original, updated):
        if self.done or self.line(original) != self.target:
            return updated
        func = updated.func
        if isinstance(func, cst.Attribute) and func.attr.value == "backward" and not _is_autograd(func.value):
            self.done = True
            if self.how == "gradient":
                grad = cst.parse_expression(f"torch.ones_like({cst.Module([]).code_for_node(func.value)})")
                arg = cst.Arg(grad, keyword=cst.Name("gradient"),
                              equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
                return updated.with_changes(args=[arg, *updated.args])
            return updated.with_changes(func=func.with_changes(value=_reduced(func.value, self.how)))
        if isinstance(func, cst.Attribute) and func.attr.value in {"backward", "grad"} and updated.args \
                and self.how != "gradient":
            self.done = True
            first = updated.args[0]
            return updated.with_changes(args=[first.with_changes(value=_reduced(first.value, self.how)), *updated.args[1:]])
        return updated


def _is_autograd(node) -> bool:
    return isinstance(node, cst.Attribute) and node.attr.value == "autograd" or \
        isinstance(node, cst.Name) and node.value == "autograd"


def reduce_to_scalar(source: str, line: int, how: str = "mean") -> str | None:
    """how: "mean", "sum", or "gradient" (pass `gradient=torch.ones_like(...)`)."""
    return transform(source, _Reduce(line, how))
