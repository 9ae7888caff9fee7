"""Gradients add up across steps because nothing zeroes them: zero them right before the
backward, in the same block, so each optimizer step applies only its own gradient. A step
taken only every few backwards (`if (i + 1) % accum == 0: opt.step()`) accumulates on purpose:
there the gradients are zeroed right after that step, in its block."""
from __future__ import annotations

import libcst as cst

from .cst import backward_line_call, load, with_body


def add_zero_grad(source: str, *, backward_line: int, optimizer: str = "", leaves: tuple[str, ...] = (),
                  step_line: int = 0) -> str | None:
    """`leaves`: no optimizer, tensors a hand-written update reads .grad of (`w.grad = None` each).
    `step_line`: the optimizer's step, zeroed after when it sits in an `if` inside the backward's block."""
    names = leaves or (optimizer,)
    tree = load(source)
    bw = tree and tree.statement(backward_line, cst.SimpleStatementLine)
    if backward_line_call(bw, tree) is None or tree.block(bw) is None or \
            not all(part.isidentifier() for name in names for part in name.split(".")):
        return None
    block, index = tree.block(bw)
    step = tree.statement(step_line, cst.SimpleStatementLine) if step_line and not leaves else None
    if step is not None and tree.block(step) is not None and tree.block(step)[0] is not block \
            and isinstance(tree.parents.get(tree.block(step)[0]), cst.If):  # accumulation: after the step
        block, index = tree.block(step)
        index += 1
    body = list(block.body)
    new = [cst.parse_statement(f"{name}.grad = None\n" if leaves else f"{name}.zero_grad()\n") for name in names]
    if any(stmt.deep_equals(n) for stmt in body for n in new):
        return None  # already zeroed in this block
    return with_body(tree, block, [*body[:index], *new, *body[index:]])
