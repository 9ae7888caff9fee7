"""A loss computed before an optimizer step that changes what it saved: compute it again
after the step (it then goes through the updated parameters, as a GAN's generator step
does in the DCGAN example). The statements from the stepped model's call to the loss are
written again right after the step; an original that nothing else reads before the step,
in the same cell, is moved rather than copied."""
from __future__ import annotations

import libcst as cst

from ..evidence.program import MARK
from .cst import code_of, facts_of, load, with_body
from .move_statement import is_step

_PIECE = MARK.split("{")[0]  # a notebook joined into one program: its cells are separated by these


def recompute_after_step(source: str, step_line: int, loss_line: int | None = None,
                         lines: tuple[int, ...] = ()) -> str | None:
    """`lines` (default: `loss_line` alone) are the statements to compute again, in order."""
    tree = load(source)
    step = tree.statement(step_line) if tree else None
    wanted = [tree.statement(l) for l in (lines or (loss_line,))] if step is not None else []
    if not wanted or any(s is None for s in wanted) or not is_step(step):
        return None
    block, at = tree.block(step) or (None, None)
    if block is None or any(tree.block(s) is None or tree.line(s) > step_line or is_step(s) for s in wanted):
        return None
    body = list(block.body)
    # a statement of another block (the fake made in the discriminator's loop, reused by the
    # generator's) is copied after the step, never moved
    elsewhere = sorted((s for s in wanted if tree.block(s)[0] is not block), key=tree.line)
    function = tree.enclosing(step, cst.FunctionDef)
    if any(tree.enclosing(s, cst.FunctionDef) is not function for s in elsewhere):
        return None  # another function's locals are not there to compute it again
    wanted = elsewhere + [s for s in body if any(s is w for w in wanted)]  # in the source's order
    copies = [code_of(s).strip() for s in wanted]
    after = [code_of(s).strip() for s in body[at + 1:at + 1 + len(copies)]]
    if after == copies:
        return source  # already computed again after the step
    keep = [s for s in body if not any(s is w for w in wanted) or not _dead_after_move(s, body, at, wanted)]
    wanted = [s.with_changes(leading_lines=()) if s in elsewhere else s for s in wanted]
    j = next(i for i, s in enumerate(keep) if s is step)
    return with_body(tree, block, keep[:j + 1] + list(wanted) + keep[j + 1:])


def _dead_after_move(stmt: cst.CSTNode, body: list, step_at: int, moved: list) -> bool:
    """Nothing between `stmt` and the step reads what it assigns (but statements moved with it),
    and no cell boundary lies between them: the original can go."""
    targets = {n for a in facts_of([stmt]).assigns for n in a.targets}
    if not targets:
        return False
    between = [s for s in body[body.index(stmt) + 1:step_at] if not any(s is m for m in moved)]
    if any(code_of(s).strip().startswith(_PIECE) for s in between):
        return False
    return not any(name in targets for name, _ in facts_of(between).reads)  # a detached read counts too
