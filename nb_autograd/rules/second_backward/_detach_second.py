"""A discriminator's loss that reads the generator's output when the generator's backward has
already freed that output's graph, the two losses written in different methods (CycleGAN's
`backward_D_basic(netD, real, fake)` after `backward_G`). The code's names do not join the
methods, but the runtime does: the name the failing loss reads holds a freed node, and the
optimizer stepped after the failing backward (read from the code, out along the failing stack)
is none of those the runtime found holding what made the freed part. So the loss takes the
tensor detached where it reads it, which is what its update uses anyway. (A generator's loss
after the discriminator's step is the opposite: its own optimizer trains what is behind.)"""
from __future__ import annotations

from ...evidence import Evidence
from ._optimizer_steps import is_step


def closure(ev: Evidence, names: set[str], after: int, upto: int) -> set[int]:
    """Lines in (after, upto] that compute `names`, followed back through what they read: for
    each name only its latest assignment before the read (a name reused for the discriminator's
    and the generator's output is two values)."""
    lines, todo, seen = set(), [(n, upto) for n in names], set()
    while todo and len(seen) < 400:
        name, before = todo.pop()
        if (name, before) in seen:
            continue
        seen.add((name, before))
        made = [a for a in ev.code.assigns_to(name) if after < a.line <= before]
        if made:
            a = max(made, key=lambda a: a.line)
            lines.add(a.line)
            todo += [(r, a.line - 1) for r in a.reads]
    return lines


def _stepped_after(ev: Evidence) -> str | None:
    """The optimizer whose step() first follows the failing backward, looked for in each function
    on the failing stack from the innermost out (a method's caller steps: `optimizer_D.step()`
    after `backward_D_A()`)."""
    for line in reversed(ev.failure.stack_lines):
        f = ev.code.function_at(line)
        steps = [c for c in ev.code.calls if is_step(c) and c.line > line and ev.code.function_at(c.line) == f]
        if steps:
            return min(steps, key=lambda c: c.line).receiver
    return None


def stale_read_by_second(ev: Evidence) -> tuple[str, tuple[int, ...]] | None:
    """(name, lines of the failing loss that read it): a freed tensor the failing loss reads in
    its own function, when its update trains nothing behind it."""
    site = ev.backward_site
    trains = ev.failure.trains_freed if ev.failure else None
    if site is None or not trains or ev.line is None:
        return None
    stepped = _stepped_after(ev)
    if stepped is None or stepped.split(".")[-1] in {t.split(".")[-1] for t in trains}:
        return None
    f = ev.code.function_at(ev.line)
    lines = closure(ev, set(site.names), f.line if f else 0, ev.line)
    for line in sorted(lines, reverse=True):
        made = next(a for a in ev.code.assigns if a.line == line)
        stale = sorted(n for n in made.reads if ev.stale_holder(n))
        if stale:
            return stale[0], tuple(l for l in sorted(lines) if any(stale[0] in a.reads for a in ev.code.assigns if a.line == l))
    return None
