"""backward() with no `gradient` needs a scalar: reduce the tensor first (`.mean()` for a
per-element loss, matching the default `reduction='mean'`; `.sum()` for a plain output, so
each element gets d(sum)/dx), or pass `gradient=` explicitly."""
from __future__ import annotations

import libcst as cst

from .cst import Tree, autograd_function, code_of, load


def _is_reduced(expr: cst.BaseExpression) -> bool:
    """Already a whole reduction (`x.mean()`, `x.sum()`): reducing again would change nothing."""
    return isinstance(expr, cst.Call) and not expr.args and isinstance(expr.func, cst.Attribute) \
        and expr.func.attr.value in {"mean", "sum"}


def _reduced(expr: cst.BaseExpression, how: str) -> cst.BaseExpression:
    if not isinstance(expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        expr = expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Call(cst.Attribute(expr, cst.Name(how)))


class _Reduce(cst.CSTTransformer):
    def __init__(self, tree: Tree, line: int, how: str):
        super().__init__()
        self.tree, self.target, self.how, self.done = tree, line, how, False

    def leave_Call(self, original, updated):
        if self.done or self.tree.line(original) != self.target:
            return updated
        func = updated.func
        if isinstance(func, cst.Attribute) and func.attr.value == "backward" and not _is_autograd(func.value):
            self.done = True
            if _is_reduced(func.value) or any(a.keyword and a.keyword.value == "gradient" for a in updated.args):
                return updated
            if self.how == "gradient":
                grad = cst.parse_expression(f"torch.ones_like({code_of(func.value)})")
                arg = cst.Arg(grad, keyword=cst.Name("gradient"),
                              equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
                return updated.with_changes(args=[arg, *updated.args])
            return updated.with_changes(func=func.with_changes(value=_reduced(func.value, self.how)))
        if autograd_function(original, self.tree) and updated.args and self.how != "gradient":
            self.done = True
            first = updated.args[0]
            if _is_reduced(first.value):
                return updated
            return updated.with_changes(args=[first.with_changes(value=_reduced(first.value, self.how)), *updated.args[1:]])
        return updated


class _ReduceReturned(cst.CSTTransformer):
    """`return ce_loss.unsqueeze(1)` in a loss function -> `return ce_loss.unsqueeze(1).mean()`."""

    def __init__(self, tree: Tree, line: int, how: str):
        super().__init__()
        self.tree, self.target, self.how = tree, line, how

    def leave_Return(self, original, updated):
        if self.tree.line(original) != self.target or updated.value is None or _is_reduced(updated.value):
            return updated
        return updated.with_changes(value=_reduced(updated.value, self.how))


def _is_autograd(node) -> bool:
    return isinstance(node, cst.Attribute) and node.attr.value == "autograd" or \
        isinstance(node, cst.Name) and node.value == "autograd"


def reduce_to_scalar(source: str, line: int, how: str = "mean") -> str | None:
    """how: "mean", "sum", or "gradient" (pass `gradient=torch.ones_like(...)`)."""
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    if stmt is not None and isinstance(stmt.body[0], cst.Return) and how != "gradient":  # the loss function's result
        return tree.rewrite(_ReduceReturned(tree, line, how))
    return tree and tree.rewrite(_Reduce(tree, line, how))
