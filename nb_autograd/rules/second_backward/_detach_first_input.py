"""A first loss that reads a tensor made from the second loss's own input: an actor-critic's
policy loss on `advantages = returns - values`, then a value loss on `values`. The policy's
backward goes through the advantages into the critic and frees the graph the value loss needs.
The runtime says which names hold what: the second loss reads one that is freed itself, the
first reads another that only reaches the freed part, and the second does not read that one.
The first loss takes it detached, as an estimate it is meant to read as a constant; each loss
then trains its own part (the thread's `values.detach()`, the A2C notebook's
`advantages = advantages.detach()`)."""
from __future__ import annotations

from ...evidence import Evidence
from ._detach_second import closure


def _reads(ev: Evidence, lines: set[int], names) -> set[str]:
    return set(names) | {n for a in ev.code.assigns if a.line in lines for n in a.reads}


def input_of_first_only(ev: Evidence, first_line: int) -> tuple[str, tuple[int, ...]] | None:
    """(name, lines of the first loss that read it), both backward calls in one function."""
    site = ev.backward_site
    first = next((b for b in ev.code.backwards if b.line == first_line), None)
    function = ev.code.function_at(site.line) if site else None
    if first is None or function is None or ev.code.function_at(first_line) != function or not ev.holders:
        return None
    mine = closure(ev, set(first.names), function.line, first_line - 1)
    theirs = _reads(ev, closure(ev, set(site.names), function.line, site.line), site.names)
    if not any(ev.stale_holder(n) for n in theirs):
        return None
    made_here = {n for a in ev.code.assigns if a.line in mine for n in a.targets}
    inputs = sorted(n for n in _reads(ev, mine, ()) - made_here - theirs
                    if ev.reaches_stale(n) and not ev.stale_holder(n))
    if len(inputs) != 1:
        return None
    lines = tuple(sorted(l for l in mine if any(inputs[0] in a.reads for a in ev.code.assigns if a.line == l)))
    return (inputs[0], lines) if lines else None
