"""One update's losses, one per time step: a decoder's loop backpropagates each step's loss
through the state it carries (`h = dec(y[t], h)`) and the optimizer steps only after the loop.
Not truncated backpropagation through time: the state's first value comes from something the
optimizer trains (an encoder), so detaching it would leave that part without any gradient.
The losses are summed into one backward instead."""
from __future__ import annotations

from ...evidence import Evidence
from ._optimizer_steps import depends_on, is_step
from ._trained import trained_by_optimizer


def stepped_after_loop(ev: Evidence) -> int | None:
    """The line of an optimizer step right after the failing loop (in the loop or function
    that holds it) when none runs inside it, and the graph was freed by this same statement in
    an earlier iteration."""
    loop = ev.loop
    if loop is None or ev.steps_in_loop or not ev.freed_by_this_statement or not loop.contains(ev.line or 0):
        return None
    function = ev.code.function_at(loop.line)
    steps = [c.line for c in ev.code.calls if is_step(c) and loop.end_line < c.line <= _scope_end(ev, loop)
             and ev.code.function_at(c.line) is function]
    return min(steps) if steps else None


def _outer(ev: Evidence, loop):
    outer = [l for l in ev.code.loops if l.line < loop.line and l.end_line >= loop.end_line and l.function == loop.function]
    return outer[-1] if outer else None


def _scope_end(ev: Evidence, loop) -> int:
    outer, function = _outer(ev, loop), ev.code.function_at(loop.line)
    return outer.end_line if outer else function.end_line if function else len(ev.code.lines)


def per_step_losses(ev: Evidence):
    """((state, line, call), step line) or None: the loop carries a recurrent state whose value
    before the loop is computed from what an optimizer trains, and steps after the loop."""
    from .recurrent_state_not_detached import recurrent_states

    step_line = stepped_after_loop(ev)
    if step_line is None:
        return None
    loop = ev.loop
    outer, function = _outer(ev, loop), ev.code.function_at(loop.line)
    start = outer.line if outer else function.line if function else 0
    for state in recurrent_states(ev):
        made = depends_on(ev, {state[0]}, loop.line - 1, start)
        if trained_by_optimizer(ev, made - {state[0]}):
            return state, step_line
    return None
