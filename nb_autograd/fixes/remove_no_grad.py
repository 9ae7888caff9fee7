"""Take the computation out of `with torch.no_grad():` (its body runs with grad tracking
again) when the result is meant to be trained."""
from __future__ import annotations

import libcst as cst

from .line_edit import BodyEditor, index_at, transform


def remove_no_grad(source: str, with_line: int) -> str | None:
    def edit(stmts, lines):
        i = index_at(lines, with_line)
        if i is None or not isinstance(stmts[i], cst.With) or not isinstance(stmts[i].body, cst.IndentedBlock):
            return None
        inner = list(stmts[i].body.body)
        inner[0] = inner[0].with_changes(leading_lines=stmts[i].leading_lines)
        return stmts[:i] + inner + stmts[i + 1:]

    return transform(source, BodyEditor(edit))
