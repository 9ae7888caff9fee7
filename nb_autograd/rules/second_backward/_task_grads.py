"""Each task's gradient read apart from one forward pass (PCGrad, GradNorm): every pass
through that graph is meant, so it is kept for the next one (kept apart: the rule module stays
small)."""
from __future__ import annotations

from ...evidence import Evidence


def per_loss_grads(ev: Evidence) -> bool:
    """`for name, loss_t in losses.items(): grads = autograd.grad(loss_t, params)` (PCGrad,
    GradNorm): the call that freed the graph is this same line, run on the previous loss of a
    collection built from one forward pass; each task's gradient is meant to be read apart."""
    site, loop = ev.backward_site, ev.loop
    if site is None or site.kind != "grad" or loop is None or ev.same_root_call or not ev.freeing_calls:
        return False
    return all(c.line == site.line for c in ev.freeing_calls) and bool(set(site.names) & ev.code.loop_targets(loop)) \
        and ev.freed_in_same_pass


def task_grads(ev: Evidence) -> tuple[int, ...]:
    """`g1 = grad(task1, w)`, then `g2 = grad(task2, w)` of another loss of the same forward
    (GradNorm, a gradient-norm weighting): each task's gradient is read apart on purpose, and the
    loss backpropagated after them needs the graph too. The lines of those grad calls, in order."""
    site = ev.backward_site
    if site is None or site.kind != "grad" or not ev.freed_in_same_pass or not ev.freed_by_grad_only \
            or ev.same_root_call or any(c.line == site.line for c in ev.freeing_calls):
        return ()
    later = any(b.line > site.line and b.kind == "backward" and ev.code.function_at(b.line) is ev.code.function_at(site.line)
                and ev.code.loops_at(b.line) == ev.code.loops_at(site.line) for b in ev.code.backwards)
    grads = sorted({c.line for c in ev.freeing_calls} | {site.line})
    return tuple(grads) if later else tuple(grads[:-1])
