"""create_graph=True on autograd.grad() calls whose results feed the loss (a gradient
penalty): the later backward then differentiates through the gradients, as intended."""
from __future__ import annotations

from .add_retain_graph import add_retain_graph


def add_create_graph(source: str, *, line: int = 0, lines: tuple[int, ...] = ()) -> str | None:
    """At `line`, or at each of `lines` (all or none)."""
    out = source
    for at in lines or (line,):
        out = add_retain_graph(out, line=at, keyword="create_graph")
        if out is None:
            return None
    return out
