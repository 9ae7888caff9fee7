"""`optimizer.step()` written between a forward and its backward changes the parameters
the graph saved; moving the step after that backward keeps them as they were."""
from __future__ import annotations

from .move_statement import has_backward, is_step, move_statement


def move_step_after_backward(source: str, step_line: int, backward_line: int, others: tuple[int, ...] = ()) -> str | None:
    """`others`: the lines of other steps that changed what this backward needs (twin critics'
    optimizers, each stepped after its own backward), moved with it."""
    return move_statement(source, step_line, backward_line,
                          check=lambda moved, anchor: is_step(moved) and has_backward(anchor),
                          together=lambda stmt: is_step(stmt) and not has_backward(stmt), others=others)
