"""`optimizer.step()` written between a forward and its backward changes the parameters
the graph saved; moving the step after that backward keeps them as they were."""
from __future__ import annotations

from .move_statement import move_after


def move_step_after_backward(source: str, step_line: int, backward_line: int) -> str | None:
    return move_after(source, step_line, backward_line)


def recompute_after_step(source: str, loss_line: int, step_line: int) -> str | None:
    """Compute the loss after the step instead (it then uses the updated parameters)."""
    return move_after(source, loss_line, step_line)
