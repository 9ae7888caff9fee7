"""Gradients of a forward's parts, one per iteration: a Jacobian row by row, one class's
saliency after another, `autograd.grad(outputs, x)` for each input in turn. The forward ran
once, before the loop, and nothing in the loop changes what it computed from (no optimizer
step, no weight update), so each pass through its graph is meant and the graph must be kept
until the last one. Recomputing the forward per part would give the very same graph."""
from __future__ import annotations

import re

from ...evidence import Evidence

_IN_PLACE_UPDATE = re.compile(r"\.(add|sub|mul|div|copy|clamp|uniform|normal|fill)_$")


def gradient_per_part(ev: Evidence) -> str | None:
    """The name of the tensor made before the loop whose parts (`y[i]`, `out[:, k]`) or
    inputs (`grad(outputs, x)` over `x`) each iteration backpropagates; None otherwise.

    Runtime facts: the call that freed the graph is this very statement in an earlier
    iteration. Code shape: the loop's variable picks the part or the input, and the loop
    updates nothing the forward read."""
    site, loop = ev.backward_site, ev.loop
    if not (site and loop and ev.freed_by_this_statement) or ev.steps_in_loop:
        return None
    targets = ev.code.loop_targets(loop)
    if not targets or site.receiver in targets:
        return None  # `for loss in losses: loss.backward()`: several losses, each its own backward
    indexed = any(re.search(rf"\[[^\]]*\b{re.escape(t)}\b", site.receiver) for t in targets)
    grad = next((c for c in ev.code.calls if c.line == site.line and c.func.endswith("grad")), None)
    inputs = site.kind == "grad" and grad is not None and any(a in targets for a in grad.args[1:2])
    if not (indexed or inputs):
        return None
    if _updates_in(ev, loop):
        return None
    base = [n for n in sorted(site.names) if n not in targets and n.isidentifier()
            and any(a.line < loop.line for a in ev.code.assigns_to(n))
            and not any(loop.contains(a.line) for a in ev.code.assigns_to(n))]
    return base[0] if base else None


def _updates_in(ev: Evidence, loop) -> bool:
    """Does the loop change weights or data in place (`W.data += ...`, `p.sub_(...)`)? Then
    every iteration is a training step, and its forward belongs inside the loop."""
    for a in ev.code.assigns:
        if loop.contains(a.line) and a.line != loop.line and a.augmented:
            return True
    return any(loop.contains(c.line) and _IN_PLACE_UPDATE.search(c.func) and not (c.receiver or "").endswith(".grad")
               for c in ev.code.calls)
