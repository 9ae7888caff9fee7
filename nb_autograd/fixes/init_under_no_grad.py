"""Wrap in-place writes to a leaf parameter in `with torch.no_grad():` (initialisation and
manual updates are not part of the model's computation, so autograd must not record them)."""
from __future__ import annotations

import libcst as cst

from .cst import expr, load, with_body


def init_under_no_grad(source: str, lines: tuple[int, ...]) -> str | None:
    """The statements starting at `lines` (consecutive in one block) go under no_grad."""
    tree = load(source)
    stmts = [tree.statement(line) for line in lines] if tree and lines else [None]
    where = [tree.block(s) if s else None for s in stmts]
    if not all(where) or len({id(w[0]) for w in where}) != 1:
        return None
    block, picked = where[0][0], sorted(w[1] for w in where)
    if isinstance(tree.parents.get(block), cst.With) or any(isinstance(s, cst.With) for s in stmts):
        return None  # already under a `with`
    body = list(block.body)
    first, last = picked[0], picked[-1]
    inner = [body[first].with_changes(leading_lines=())] + [  # a blank line inside stays blank, not indented
        st.with_changes(leading_lines=[l.with_changes(indent=False) if l.comment is None else l for l in st.leading_lines])
        for st in body[first + 1:last + 1]]
    wrapped = cst.With(items=[cst.WithItem(expr("torch.no_grad()"))], body=cst.IndentedBlock(body=inner),
                       leading_lines=body[first].leading_lines)
    return with_body(tree, block, body[:first] + [wrapped] + body[last + 1:])
