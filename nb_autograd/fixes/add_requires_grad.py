"""Make the tensor created at a line a trainable leaf: `w = torch.randn(3, 1)` -> `w =
torch.randn(3, 1, requires_grad=True)`; a value computed from the factory call (`w =
torch.randn(3, 1) * 0.1`) -> `(...).requires_grad_()`, since the flag on the inner call would
make `w` a non-leaf whose `.grad` stays None."""
from __future__ import annotations

import libcst as cst

from .cst import Tree, code_of, expr, load, only_small


FACTORIES = {"randn", "rand", "zeros", "ones", "empty", "full", "tensor", "arange", "linspace",
             "eye", "zeros_like", "ones_like", "randn_like", "rand_like", "normal"}


def _name(func) -> str:
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""


class _AddFlag(cst.CSTTransformer):
    def __init__(self, tree: Tree, line: int):
        super().__init__()
        self.tree, self.target, self.done = tree, line, False

    def leave_Call(self, original, updated):
        if self.done or self.tree.line(original) != self.target or _name(updated.func) not in FACTORIES:
            return updated
        if any(a.keyword and a.keyword.value == "requires_grad" for a in updated.args):
            args = [a.with_changes(value=cst.Name("True")) if a.keyword and a.keyword.value == "requires_grad" else a
                    for a in updated.args]
        else:
            args = list(updated.args)
            if args:
                args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            args.append(cst.Arg(cst.Name("True"), keyword=cst.Name("requires_grad"),
                                equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))))
        self.done = True
        return updated.with_changes(args=args)


def add_requires_grad(source: str, line: int) -> str | None:
    tree = load(source)
    assign = tree and only_small(tree.statement(line), cst.Assign)
    value = assign.value if assign else None
    if value is None or isinstance(value, cst.Call) and _name(value.func) in FACTORIES:
        return tree and tree.rewrite(_AddFlag(tree, line))
    if isinstance(value, cst.Call) and _name(value.func) == "requires_grad_":
        return None
    return tree.replace(value, expr(f"({code_of(value)}).requires_grad_()"))
