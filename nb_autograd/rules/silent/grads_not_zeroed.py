"""backward() runs on several steps but nothing zeroes .grad between optimizer steps, so
each step applies the sum of all gradients so far (unintended accumulation)."""
from __future__ import annotations

from ...capture.silent import GradsAccumulated
from ...evidence import Evidence
from ...evidence.errors import read_errors
from ..base import Hit
from .grads_not_zeroed_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "grads_not_zeroed"
SYMPTOM = "silent"

def _optimizer_name(ev: Evidence, line: int | None) -> str:
    call = next((c for c in ev.code.calls if c.line == line and c.func.endswith(".step") and c.receiver), None)
    return call.receiver if call else "optimizer"


def match(ev: Evidence) -> Hit | None:
    found = next((o for o in ev.capture.silent if isinstance(o, GradsAccumulated)), None)
    if found is None:
        return None
    backward = found.backward_line or found.step_line
    if found.leaf:  # no optimizer: a hand-written update reads .grad and nothing clears it
        names, line = _hand_update(ev, found, backward)
        return Hit(CAUSE, line, 0.8, facts=(("name", names[0]), ("names", ",".join(names)), ("line", str(line)),
                                            ("steps", str(found.steps)), ("backward_line", str(backward)),
                                            ("module", "1" if found.module else "")),
                   related=(("backward", backward),) if backward else (), variant="hand_update")
    name = _optimizer_name(ev, found.step_line)
    outside = _zeroed_outside(ev, name, backward)
    line = outside or backward
    return Hit(CAUSE, line, 0.8, facts=(("name", name), ("line", str(line)), ("step_line", str(found.step_line)),
                                        ("steps", str(found.steps)), ("backward_line", str(backward))),
               related=(("step", found.step_line),) if found.step_line else (),
               variant="zeroed_outside" if outside else "")


def _hand_update(ev: Evidence, found: GradsAccumulated, backward: int | None) -> tuple[tuple[str, ...], int]:
    """(the names whose .grad the loop around the backward reads, in order, the runtime's leaf
    among them; the first line after the backward that writes one of them in place: the update)."""
    loops = ev.code.loops_at(backward) if backward else ()
    inside = loops[-1].contains if loops else (lambda line: True)
    names = [found.leaf] if found.module else list(dict.fromkeys(
        n.removesuffix(".grad") for n, line in sorted(ev.code.reads, key=lambda r: r[1])
        if n.endswith(".grad") and inside(line) and n.count(".") == found.leaf.count(".") + 1))
    names = names if found.leaf in names else [found.leaf]
    after = lambda line: inside(line) and line > (backward or 0)  # noqa: E731
    writes = [op.line for op in read_errors(ev.capture.source).inplace if op.target in names and op.kind != "step"
              and after(op.line)] or [line for n, line in ev.code.reads if n.endswith(".grad") and after(line)]
    return tuple(names), min(writes, default=backward or 0)


def _zeroed_outside(ev: Evidence, name: str, backward: int | None) -> int | None:
    """`optimizer.zero_grad()` written once before the loop that runs the backwards (once per
    epoch, or once before training): that call, in the wrong place, is the root."""
    loops = ev.code.loops_at(backward) if backward else ()
    if not loops:
        return None
    inner = loops[-1]
    function = ev.code.function_at(backward)
    calls = [c.line for c in ev.code.calls if c.func == name + ".zero_grad" and c.line < inner.line
             and not inner.contains(c.line) and ev.code.function_at(c.line) == function]
    return calls[-1] if calls else None


def plans(hit: Hit, ev: Evidence) -> list:
    """Zero the gradients right before the backward, in the same block: every step then applies
    only its own gradient; a step taken every few backwards accumulates on purpose, and is
    zeroed right after it instead.
    A hand-written update: the tensors it reads .grad of are cleared there (`w.grad = None`)."""
    from ...fixes.plan import plan

    if hit.variant == "hand_update":  # no optimizer to zero: the tensors themselves, or the module
        if hit.fact("module"):
            return [plan("add_zero_grad", backward_line=int(hit.fact("backward_line")), optimizer=hit.fact("name"),
                         facts={"name": hit.fact("name")})]
        names = tuple(hit.fact("names").split(","))
        return [plan("add_zero_grad", title="clear_leaf_grads", backward_line=int(hit.fact("backward_line")),
                     leaves=names, facts={"name": names[0]})]

    backward, step = int(hit.fact("backward_line")), hit.fact("step_line") or ""
    if step.isdigit() and int(step) > backward and ev.conditional(int(step), backward):  # a step every few backwards
        return [plan("add_zero_grad", title="zero_after_step", backward_line=backward, optimizer=hit.fact("name"),
                     step_line=int(step), facts={"name": hit.fact("name")})]
    return [plan("add_zero_grad", backward_line=backward, optimizer=hit.fact("name"), facts={"name": hit.fact("name")})]
