"""Tensors written row by row with each step's outputs (`user_embeddings[ids, :] = out`, JODIE's
dynamic embedding tables): the rows keep the graph of the step that wrote them, so the next
step's loss reaches a graph the last backward freed. Detach the tables in place once the
update is done (`user_embeddings.detach_()` after the optimizer step): within a step the rows
still carry gradients to the model, across steps they start fresh (claws-lab/jodie#13).
Detaching the written value instead would cut those within-step gradients."""
from __future__ import annotations

import libcst as cst

from .cst import after_update, code_of, load, with_body


def detach_tables(source: str, *, backward_line: int, names) -> str | None:
    tree = load(source)
    update = after_update(tree, backward_line)
    if update is None or not names:
        return None
    block, _, end = update
    body = list(block.body)
    present = {code_of(s).strip() for s in body[end:]}
    cuts = [cst.parse_statement(f"{n}.detach_()\n") for n in names if f"{n}.detach_()" not in present]
    if not cuts:
        return None  # applied already
    return with_body(tree, block, [*body[:end], *cuts, *body[end:]])
