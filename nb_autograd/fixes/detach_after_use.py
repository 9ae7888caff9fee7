"""A module's persistent buffer that its forward writes in place with this step's values
(`self.buf.zero_(); self.buf.scatter_add_(0, idx, energies)`): each write chains the new graph
onto the buffer's old one. Cut the buffer loose in place (`self.buf.detach_()`) once this call
is done reading it, so the value handed to the caller keeps its graph and the next call's
writes start a fresh one (nvalchemi-toolkit#82)."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, facts_of, load, with_body


def detach_after_use(source: str, *, line: int, name: str) -> str | None:
    """After the last statement of the block holding the write at `line` that reads `name`
    (before the block's return)."""
    tree = load(source)
    write = tree and tree.statement(line, cst.SimpleStatementLine)
    here = tree.block(write) if write is not None else None
    if here is None or tree.enclosing(write, cst.FunctionDef) is None:
        return None
    body = list(here[0].body)
    cut = f"{name} = {name}.detach()" if "[" in name else f"{name}.detach_()"  # an entry: replaced, a view too
    if any(code_of(stmt).strip() == cut for stmt in body[here[1] + 1:]):
        return None  # applied already
    last = here[1]
    for i in range(here[1] + 1, len(body)):
        if isinstance(body[i], cst.SimpleStatementLine) and any(isinstance(s, cst.Return) for s in body[i].body):
            if any(n == name or n.startswith(name + ".") for n, _ in facts_of([body[i]]).reads):
                return None  # `return self.buf.clone()`: no place between the last read and the hand-over
            break
        if any(n == name or n.startswith(name + ".") for n, _ in facts_of([body[i]]).reads):
            last = i
    body.insert(last + 1, cst.parse_statement(cut + "\n"))
    return with_body(tree, here[0], body)
