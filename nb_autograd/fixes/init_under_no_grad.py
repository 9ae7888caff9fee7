"""Wrap in-place writes to a leaf parameter in `with torch.no_grad():` (initialisation and
manual updates are not part of the model's computation, so autograd must not record them)."""
from __future__ import annotations

import libcst as cst

from .line_edit import BodyEditor, index_at, transform


def init_under_no_grad(source: str, lines: tuple[int, ...]) -> str | None:
    """The statements starting at `lines` (consecutive in one block) go under no_grad."""

    def edit(stmts, starts):
        picked = [index_at(starts, line) for line in lines]
        if any(i is None for i in picked):
            return None
        first, last = min(picked), max(picked)
        block = cst.With(
            items=[cst.WithItem(cst.parse_expression("torch.no_grad()"))],
            body=cst.IndentedBlock(body=stmts[first:last + 1]),
            leading_lines=stmts[first].leading_lines,
        )
        inner = [stmts[first].with_changes(leading_lines=())] + stmts[first + 1:last + 1]
        return stmts[:first] + [block.with_changes(body=cst.IndentedBlock(body=inner))] + stmts[last + 1:]

    return transform(source, BodyEditor(edit))
