"""Copy the statements that build a value (given as lines, in order) to the top of a later
loop's body, leaving them where they are: for a value made in an earlier notebook cell that
a re-run cell backpropagates again, the cell that backpropagates builds it afresh each run."""
from __future__ import annotations

from .move_into_loop import move_into_loop


def copy_into_loop(source: str, *, lines: tuple[int, ...], loop_line: int) -> str | None:
    out = source
    for line in sorted(lines, reverse=True):  # each goes to the top: the last one first
        patched = move_into_loop(out, line=line, loop_line=loop_line, keep=True)  # inserted below both lines
        if patched is None:
            return None
        out = patched
    return out
