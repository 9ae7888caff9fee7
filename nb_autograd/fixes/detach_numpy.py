"""`.numpy()` on a tensor that requires grad: convert a detached CPU copy,
`t.numpy()` -> `t.detach().cpu().numpy()`; for an implicit conversion (`np.array(t)`),
convert the tensor argument the same way. Every `.numpy()` in the block around the line is
converted: the error names only the first tensor that requires grad (a function called again
with its arguments swapped fails on the line above next), and a detached copy of one that does
not is harmless."""
from __future__ import annotations

import libcst as cst

from .cst import Tree, code_of, detached, expr, load


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


def _element_of(comp, arg: str) -> str | None:
    """The name a comprehension binds to each item of `arg`: `y` in `for (x, y) in zip(n, arg)`
    or in `for y in arg`; None for another shape."""
    target, source = comp.for_in.target, comp.for_in.iter
    if code_of(source) == arg:
        return target.value if isinstance(target, cst.Name) else None
    if isinstance(source, cst.Call) and code_of(source.func) == "zip" and isinstance(target, (cst.Tuple, cst.List)):
        args = [code_of(a.value) for a in source.args]
        if arg in args and len(args) == len(target.elements):
            name = target.elements[args.index(arg)].value
            return name.value if isinstance(name, cst.Name) else None
    return None


class _DetachRead(cst.CSTTransformer):
    def __init__(self, name: str):
        super().__init__()
        self.name = name

    def leave_Name(self, original, updated):
        return _detached(updated) if updated.value == self.name else updated


class _DetachItems(cst.CSTTransformer):
    """A list of tensors handed to NumPy (`np.sum([x * y for (x, y) in zip(n, losses)])`):
    each item detached where a comprehension reads it, else the list rebuilt of detached items."""

    def __init__(self, tree: Tree, line: int, arg: str, in_comprehension: bool):
        super().__init__()
        self.tree, self.line, self.arg, self.done, self.applied = tree, line, arg, False, False
        self.in_comprehension = in_comprehension

    def leave_ListComp(self, original, updated):
        return self._comprehension(original, updated)

    def leave_GeneratorExp(self, original, updated):
        return self._comprehension(original, updated)

    def _comprehension(self, original, updated):
        name = _element_of(updated, self.arg) if self.in_comprehension and self.tree.line(original) == self.line else None
        if name is None or updated.for_in.inner_for_in is not None:
            return updated
        if f"{name}.detach()" in code_of(updated.elt):
            self.applied = True  # done already: nothing to patch
            return updated
        self.done = True
        return updated.with_changes(elt=updated.elt.visit(_DetachRead(name)))

    def leave_Arg(self, original, updated):
        if self.done or self.in_comprehension or self.tree.line(original) != self.line or updated.keyword \
                or code_of(updated.value) != self.arg:
            return updated
        self.done = True
        return updated.with_changes(value=expr(f"[t.detach().cpu() for t in {self.arg}]"))


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


def detach_numpy(source: str, line: int, arg: str | None = None, items: bool = False) -> str | None:
    """`arg` names the tensor passed to an implicit conversion; None patches `.numpy()` in the
    loop, with-block or function holding the line: the conversions next to it read the same
    results (yolov7's boxes, then keypoints; umwe's emb1 and emb2) and would fail next.
    `items`: the runtime saw `arg` hold a list of tensors, detached item by item."""
    tree = load(source)
    if items and arg:
        if tree is None:
            return None
        for in_comprehension in (True, False):  # where a comprehension reads the items, else the list itself
            change = _DetachItems(tree, line, arg, in_comprehension)
            out = tree.rewrite(change)
            if change.applied:
                return None
            if change.done:
                return out
        return None
    stmt = tree and tree.statement(line)
    scope = tree.enclosing(stmt, _SCOPES) if stmt is not None else None
    start, end = (tree.positions[scope].start.line, tree.positions[scope].end.line) if scope is not None else (line, line)
    return tree and tree.rewrite(_Detach(tree, line, arg, range(start, end + 1)))
