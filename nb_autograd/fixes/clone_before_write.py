"""`x[0] = v` writes into a tensor autograd saved: rebind `x = x.clone()` just before it, so
the write goes into a copy and the saved `x` keeps its version."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, load, with_body


def clone_before_write(source: str, line: int, name: str) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line)
    where = stmt and tree.block(stmt)
    if not where:
        return None
    block, i = where
    clone = cst.parse_statement(f"{name} = {name}.clone()\n")
    body = list(block.body)
    if any(code_of(s).strip() == code_of(clone).strip() for s in body[max(i - 1, 0):i + 1]):
        return None  # already cloned
    return with_body(tree, block, body[:i] + [clone] + body[i:])
