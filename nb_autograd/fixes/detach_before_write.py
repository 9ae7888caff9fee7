"""A buffer a module keeps and writes slice by slice with each call's values (a KV cache:
`self.cache_k[:b, pos:pos + n] = xk`): the write chains this call's graph onto the one the
last call left in the buffer. Start each call from the buffer's values only
(`self.cache_k = self.cache_k.detach()` right before the first write), so this call's keys still
carry their gradient into the attention that reads them (llama-cookbook#247)."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, load, with_body


def detach_before_write(source: str, *, line: int, names: tuple[str, ...]) -> str | None:
    """Before the statement at `line` (the first write), one `name = name.detach()` per name."""
    tree = load(source)
    write = tree and tree.statement(line, cst.SimpleStatementLine)
    here = tree.block(write) if write is not None else None
    if here is None or not names:
        return None
    body = list(here[0].body)
    cuts = [f"{n} = {n}.detach()" for n in names]
    if {code_of(stmt).strip() for stmt in body[:here[1] + 1]} & set(cuts):
        return None  # applied already (the line may now be one of the cuts)
    body[here[1]:here[1]] = [cst.parse_statement(c + "\n") for c in cuts]
    return with_body(tree, here[0], body)
