"""A discriminator's loss that reads the generator's output when the generator's backward has
already freed that output's graph, the two losses written in different methods (CycleGAN's
`backward_D_basic(netD, real, fake)` after `backward_G`). The code's names do not join the
methods, but the runtime does: the name the failing loss reads holds a freed node, and the
optimizer stepped after the failing backward (read from the code, out along the failing stack)
is none of those the runtime found holding what made the freed part. So the loss takes the
tensor detached where it reads it, which is what its update uses anyway. In the opposite order
(the critic's step first, the generator's loss failing) the critic's loss is the one to take it
detached: where the call its backward ran below hands it the freed tensor."""
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


def _stepped_after(ev: Evidence, stack_lines: tuple[int, ...]) -> str | None:
    """The optimizer whose step() first follows a backward, looked for in each function on its
    stack from the innermost out (a method's caller steps: `optimizer_D.step()` after
    `backward_D_A()`)."""
    for line in reversed(stack_lines):
        f = ev.code.function_at(line)
        steps = [c for c in ev.code.calls if is_step(c) and c.line > line and ev.code.function_at(c.line) == f]
        if steps:
            return min(steps, key=lambda c: c.line).receiver
    return None


def _trains_nothing_behind(stepped: str | None, trains: tuple[str, ...]) -> bool:
    return stepped is not None and stepped.split(".")[-1] not in {t.split(".")[-1] for t in trains}


def _stale_read(ev: Evidence, lines: set[int]) -> tuple[str, tuple[int, ...]] | None:
    """(name, the lines reading it) of the latest of `lines` that reads a name the runtime found
    holding a freed node."""
    for line in sorted(lines, reverse=True):
        made = next(a for a in ev.code.assigns if a.line == line)
        stale = sorted(n for n in made.reads if ev.stale_holder(n))
        if stale:
            return stale[0], tuple(l for l in sorted(lines) if any(stale[0] in a.reads for a in ev.code.assigns if a.line == l))
    return None


def stale_read_by_second(ev: Evidence) -> tuple[str, tuple[int, ...]] | None:
    """(name, lines of the failing loss that read it): a freed tensor the failing loss reads in
    its own function, when its update trains nothing behind it."""
    site = ev.backward_site
    trains = ev.failure.trains_freed if ev.failure else None
    if site is None or not trains or ev.line is None:
        return None
    if not _trains_nothing_behind(_stepped_after(ev, ev.failure.stack_lines), trains):
        return None
    f = ev.code.function_at(ev.line)
    return _stale_read(ev, closure(ev, set(site.names), f.line if f else 0, ev.line))


def stale_read_by_first(ev: Evidence) -> tuple[str, tuple[int, ...]] | None:
    """(name, lines): the opposite order, the critic's step first. The loss whose backward freed
    the failing loss's input read a name the runtime found freed, in its own function
    (`self.netD_person(self.person_crop_fake)`) or handed to it by a caller on the way
    (`self.critic_loss(real, self.fake)`), and the optimizer stepped after that backward trains
    nothing behind it: that loss takes it detached there."""
    trains = ev.failure.trains_freed if ev.failure else None
    freeing = ev.freeing_calls[-1] if ev.freeing_calls else None
    if not trains or freeing is None or not freeing.stack_lines or \
            not _trains_nothing_behind(_stepped_after(ev, freeing.stack_lines), trains):
        return None
    inner = freeing.stack_lines[-1]
    first, f = next((b for b in ev.code.backwards if b.line == inner), None), ev.code.function_at(inner)
    read = _stale_read(ev, closure(ev, set(first.names), f.line if f else 0, inner)) if first else None
    if read:
        return read
    for line in reversed(freeing.stack_lines[:-1]):
        passed = sorted({n for c in ev.code.calls if c.line == line for n in c.args if n and ev.stale_holder(n)})
        if passed:
            return passed[0], (line,)
    return None
