"""A tensor built in a loop that ran before the failing one and reused by each of its
iterations: AdvGAN's `perturbation = self.G(x)` and `adv_images`, made in the discriminator's
loop, read by every generator step. The runtime found the last value's graph freed; the
statements that built it run again in the failing loop when it trains what made it."""
from __future__ import annotations

from ...evidence import Evidence
from ._trained import global_reads, trained_by_optimizer


def ran_before(ev: Evidence, sibling, loop) -> bool:
    """`sibling` ended before `loop` starts, in the same function (not a generator's loop that
    runs between the failing loop's steps)."""
    return sibling.end_line < loop.line and ev.code.function_at(sibling.line) is ev.code.function_at(loop.line)


def made_in_sibling_loop(ev: Evidence, name: str, line: int) -> tuple[tuple[int, ...], int] | None:
    """(the statements of an earlier loop that build `name`, in order; that loop's line), when
    `line` is in a loop that ran before the failing one (AdvGAN's `perturbation = self.G(x)` and
    `adv_images` in the discriminator's loop, reused by each generator step)."""
    loop = ev.loop
    sibling = next((l for l in ev.code.loops_at(line) if not l.contains(loop.line)), None) if loop else None
    if sibling is None or not ran_before(ev, sibling, loop):
        return None
    inside = sorted((a for a in ev.code.assigns if sibling.contains(a.line) and a.line <= line), key=lambda a: -a.line)
    chain, needed = [], {name}
    for a in inside:
        if set(a.targets) & needed and not a.detached and not a.no_grad:
            chain.append(a.line)
            needed = (needed - set(a.targets)) | set(a.reads)
    return tuple(sorted(chain)), sibling.line


def sibling_plans(ev: Evidence, chain: tuple[int, ...], loop_line: int) -> list:
    """Built again right before the failing loop first reads it, when an optimizer trains what
    it is made from; else (or as the second choice) computed under no_grad where it is."""
    from ...fixes.plan import plan

    built = [a for a in ev.code.assigns if a.line in chain]
    made = {t for a in built for t in a.targets}
    loop = next((l for l in ev.code.loops if l.line == loop_line), None)
    first_read = min((r for n in made for r in ev.code.read_lines(n) if loop and loop.contains(r) and r != loop.line),
                     default=None)
    frozen = plan("wrap_no_grad", line=chain[-1])
    if first_read is None or not trained_by_optimizer(ev, frozenset().union(*(global_reads(ev, a) for a in built))):
        return [frozen]
    return [plan("copy_into_loop", title="move_into_loop", lines=chain, before=first_read), frozen]
