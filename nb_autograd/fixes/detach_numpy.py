"""`.numpy()` on a tensor that requires grad: convert a detached CPU copy,
`t.numpy()` -> `t.detach().cpu().numpy()`; for an implicit conversion (`np.array(t)`),
convert the tensor argument the same way. Every `.numpy()` in the block around the line is
converted: the error names only the first tensor that requires grad (a function called again
with its arguments swapped fails on the line above next), and a detached copy of one that does
not is harmless."""
from __future__ import annotations

import libcst as cst

from .cst import Tree, code_of, detached, load


def _detached(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`expr.detach().cpu()` (`x.cpu().detach()` when `expr` is already moved), parenthesised
    first when `expr` binds looser (`(x @ a).detach()`)."""
    moved = isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "cpu"
    return detached(expr) if moved else cst.Call(cst.Attribute(detached(expr), cst.Name("cpu")))


def _has_detach(expr) -> bool:
    while isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        if expr.func.attr.value == "detach":
            return True
        expr = expr.func.value
    return False


class _Detach(cst.CSTTransformer):
    def __init__(self, tree: Tree, line: int, arg: str | None, lines: range):
        super().__init__()
        self.tree, self.target, self.arg, self.lines, self.done = tree, line, arg, lines, False

    def leave_Call(self, original, updated):
        if self.done or self.tree.line(original) not in (self.lines if self.arg is None else (self.target,)):
            return updated
        func = updated.func
        if self.arg is None and isinstance(func, cst.Attribute) and func.attr.value == "numpy" \
                and not _has_detach(func.value):
            return updated.with_changes(func=func.with_changes(value=_detached(func.value)))
        if self.arg is not None:
            for k, a in enumerate(updated.args):
                if not a.keyword and code_of(a.value) == self.arg:
                    self.done = True
                    value = cst.Call(cst.Attribute(_detached(a.value), cst.Name("numpy")))
                    return updated.with_changes(args=[*updated.args[:k], a.with_changes(value=value), *updated.args[k + 1:]])
        return updated


_SCOPES = (cst.For, cst.While, cst.With, cst.FunctionDef)


def detach_numpy(source: str, line: int, arg: str | None = None) -> str | None:
    """`arg` names the tensor passed to an implicit conversion; None patches `.numpy()` in the
    loop, with-block or function holding the line: the conversions next to it read the same
    results (yolov7's boxes, then keypoints; umwe's emb1 and emb2) and would fail next."""
    tree = load(source)
    stmt = tree and tree.statement(line)
    scope = tree.enclosing(stmt, _SCOPES) if stmt is not None else None
    start, end = (tree.positions[scope].start.line, tree.positions[scope].end.line) if scope is not None else (line, line)
    return tree and tree.rewrite(_Detach(tree, line, arg, range(start, end + 1)))
