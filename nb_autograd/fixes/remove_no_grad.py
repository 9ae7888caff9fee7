"""Take the computation out of `with torch.no_grad():` (its body runs with grad tracking
again) when the result is meant to be trained."""
from __future__ import annotations

import libcst as cst

from .cst import load, with_body


def remove_no_grad(source: str, with_line: int) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(with_line, cst.With)
    where = stmt and tree.block(stmt)
    if not where or not isinstance(stmt.body, cst.IndentedBlock):
        return None
    block, i = where
    inner = list(stmt.body.body)
    inner[0] = inner[0].with_changes(leading_lines=stmt.leading_lines)
    return with_body(tree, block, list(block.body[:i]) + inner + list(block.body[i + 1:]))
