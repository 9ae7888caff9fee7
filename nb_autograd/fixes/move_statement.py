"""Move one statement after another in the same block: `optimizer.step()` after the
backward that still needs the old parameters, or a loss computation after the step
(so it is recomputed from the updated parameters)."""
from __future__ import annotations

from .line_edit import BodyEditor, index_at, transform


def move_after(source: str, line: int, after: int) -> str | None:
    """The statement starting at `line` goes right after the one starting at `after`."""

    def edit(stmts, lines):
        i, j = index_at(lines, line), index_at(lines, after)
        if i is None or j is None or i == j:
            return None
        moved = stmts[i]
        rest = stmts[:i] + stmts[i + 1:]
        j = j - 1 if j > i else j
        return rest[:j + 1] + [moved] + rest[j + 1:]

    return transform(source, BodyEditor(edit))
