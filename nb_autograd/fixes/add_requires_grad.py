"""Add `requires_grad=True` to the factory call that creates a tensor meant to be trained
(`w = torch.randn(3, 1)` -> `w = torch.randn(3, 1, requires_grad=True)`)."""
from __future__ import annotations

import libcst as cst

from .line_edit import LineTransformer, transform


FACTORIES = {"randn", "rand", "zeros", "ones", "empty", "full", "tensor", "arange", "linspace",
             "eye", "zeros_like", "ones_like", "randn_like", "rand_like", "normal"}


def _name(func) -> str:
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""


class _AddFlag(LineTransformer):
    def __init__(self, line: int):
        super().__init__()
        self.target, self.done = line, False

    def leave_Call(self, original, updated):
        if self.done or self.line(original) != self.target or _name(updated.func) not in FACTORIES:
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
    """The first tensor factory call at `line` gets the flag."""
    return transform(source, _AddFlag(line))
