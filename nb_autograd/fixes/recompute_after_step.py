"""A loss computed before an optimizer step that changes what it saved: compute it after
the step instead (it then uses the updated parameters, as a GAN's generator step should)."""
from __future__ import annotations

from .move_statement import is_step, move_statement


def recompute_after_step(source: str, loss_line: int, step_line: int) -> str | None:
    return move_statement(source, loss_line, step_line,
                          check=lambda moved, anchor: is_step(anchor) and not is_step(moved))
