"""create_graph=True on an autograd.grad() call whose result feeds the loss (a gradient
penalty): the later backward then differentiates through the gradient, as intended."""
from __future__ import annotations

from .add_retain_graph import add_retain_graph


def add_create_graph(source: str, *, line: int) -> str | None:
    return add_retain_graph(source, line=line, keyword="create_graph")
