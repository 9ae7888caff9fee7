"""A running loss (loss += l) keeps earlier iterations' graphs and is backpropagated each time."""
from __future__ import annotations

import re

from ...evidence import Evidence
from ..base import Hit
from .accumulated_loss_backward_in_loop_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "accumulated_loss_backward_in_loop"
SYMPTOM = "second_backward"


def _accumulators(ev: Evidence) -> dict[str, int]:
    """Names accumulated (x += ..., x = x + ...) inside the loop and carried across it; not in
    a constructor or a helper only the constructor calls (a total built once, at set-up)."""
    out: dict[str, int] = {}
    for a in ev.code.assigns:
        if a.accumulates and not a.detached and ev.in_loop_scope(a.line, a.targets[0]) and ev.carried(a.targets[0]) \
                and not ev.code.set_up_only(a.line):
            out.setdefault(a.targets[0], a.line)
    return out


def _started_afresh_after(ev: Evidence, name: str, backward: int) -> bool:
    """`loss = 0` right after `loss.backward()` in the loop that holds the backward: the total
    each backward reads holds only the terms added since the last one."""
    loops = ev.code.loops_at(backward)
    if not loops:
        return False
    return any(loops[-1].contains(a.line) and a.line > backward and not a.accumulates and not a.reads
               for a in ev.code.assigns_to(name))


def _added_to_after_backward(ev: Evidence) -> tuple[str, int, int, int] | None:
    """The failing backward's total was backpropagated earlier in the same pass and only added
    to since (no fresh start): (name, first addition after, its first assignment, earlier backward)."""
    site, calls = ev.backward_site, ev.freeing_calls
    if site is None or not calls or not ev.freed_in_same_pass:
        return None
    first = calls[0].line
    earlier = next((b for b in ev.code.backwards if b.line == first), None)
    name = site.receiver
    if earlier is None or earlier.receiver != name or first >= site.line:
        return None
    between = [a for a in ev.code.assigns_to(name) if first < a.line < site.line]
    init = [a.line for a in ev.code.assigns_to(name) if a.line < first and not a.accumulates]
    if not between or not all(a.accumulates for a in between) or not init:
        return None
    return name, min(a.line for a in between), max(init), first


def _global_total(ev: Evidence, name: str, line: int):
    """(its initialisation, the function) for a total the function holding the backward declares
    `global`, adds to at `line` and never assigns afresh; None otherwise."""
    function = ev.code.function_at(line)
    if function is None or ev.line is None or not function.line <= ev.line <= function.end_line \
            or not ev.declared_global(name, function.line, function.end_line):
        return None
    inside = [a for a in ev.code.assigns_to(name) if function.line < a.line <= function.end_line]
    outside = [a.line for a in ev.code.assigns_to(name) if not a.accumulates and a.line < function.line]
    if any(not a.accumulates for a in inside) or not outside:
        return None
    return max(outside), function


def match(ev: Evidence) -> Hit | None:
    site = ev.backward_site
    again = _added_to_after_backward(ev)
    if again:
        name, line, init, first = again
        return Hit(CAUSE, line, 0.9, facts=(("name", name), ("line", str(line)), ("backward_line", str(site.line)),
                                            ("init_line", str(init)), ("first_line", str(first))),
                   related=(("backward", first), ("backward", site.line)), variant="added_after_backward")
    if site is None or ev.same_root_call or ev.freed_in_same_pass:
        return None
    accumulators = _accumulators(ev)
    names, weights = set(site.names), set()
    for a in ev.code.assigns:  # one hop: avg = total / n; loss = sum(totals.values())
        if set(a.targets) & names and ev.in_loop_scope(a.line):
            names |= a.reads
            weights |= {n for n in a.reads if _weighs(ev, a.line, n)}
    hit = [n for n in accumulators if (n in names or n.split("[")[0] in names) and n not in weights]
    if ev.has_runtime_staleness and ev.holders:  # the runtime read the frames: a total holds part of the graph
        hit = [n for n in hit if ev.holder(n.split("[")[0]) is not None]  # (`s_id += 1` counts; it holds no tensor)
    if not hit:
        return None
    name = hit[0]
    if ev.has_runtime_staleness and ev.holder(name) is not None and not ev.reaches_stale(name):
        return None
    if _started_afresh_after(ev, name, site.line):  # each backward gets a total of its own: the stale part is elsewhere
        return None
    kept = _global_total(ev, name, accumulators[name])
    if kept is not None:  # never started afresh: each call adds to the one total set up outside
        init, function = kept
        return Hit(CAUSE, init, 0.9, facts=(("name", name), ("line", str(init)), ("add_line", str(accumulators[name])),
                                            ("backward_line", str(site.line)), ("function", function.name),
                                            ("function_line", str(function.line))),
                   related=(("add", accumulators[name]), ("backward", site.line)), variant="global_total")
    return Hit(CAUSE, accumulators[name], 0.9,
               facts=(("name", name), ("line", str(accumulators[name])), ("backward_line", str(site.line))),
               related=(("backward", site.line),))


def _weighs(ev: Evidence, line: int, name: str) -> bool:
    """`loss = obj + lam * constraint`: the sum multiplies a value of this step (a Lagrange
    multiplier, an adaptive weight); it is a state carried between steps, not a loss added up
    (`alpha * total` weighs a total by a constant: still a total)."""
    pairs = re.findall(r"(?<![\w.])(\w+)\s*\*(?!\*)\s*(\w+)(?![\w.(\[])", ev.code.line_text(line))
    others = {b if a == name else a for a, b in pairs if name in (a, b)}
    return any(ev.code.assigns_to(o) and all(ev.in_loop_scope(x.line) for x in ev.code.assigns_to(o)) for o in others - {name})


def plans(hit: Hit, ev: Evidence) -> list:
    """A total reset every outer iteration sums an objective over the inner loop (time steps,
    ensemble members): one backward (and step) after that loop. A total kept across a run of
    optimizer steps is a metric: each step backpropagates its own loss, the total gets floats.
    So are totals per key. A total summing an inner loop but started outside its backward's loop,
    or backpropagated every k steps, is reset for each backward (reset_total: those shapes only).
    No retain_graph: it would backpropagate old terms again."""
    from ...fixes.plan import plan

    name, backward_line = hit.fact("name"), int(hit.fact("backward_line"))
    if hit.variant == "global_total":
        return [plan("reset_in_function", name=name, init_line=hit.line, function_line=int(hit.fact("function_line")),
                     facts={"name": name, "function": hit.fact("function")})]
    if hit.variant == "added_after_backward":
        return [plan("reset_before_accumulating", line=hit.line, name=name, init_line=int(hit.fact("init_line")),
                     first_line=int(hit.fact("first_line")), facts={"name": name})]
    loops = ev.code.loops_at(hit.line)
    item = plan("use_item", line=hit.line, backward_line=backward_line, name=name, facts={"name": name})
    first = [plan("use_item_per_key", title="use_item", line=hit.line, backward_line=backward_line, facts={"name": name}),
             plan("reset_total", line=hit.line, backward_line=backward_line, name=name, facts={"name": name})]
    if not loops:  # accumulated in a function the loop calls: its backward cannot leave the call
        return list([*first, item])
    inner = loops[-1]
    reset = len(loops) > 1 and any(loops[-2].contains(a.line) and not inner.contains(a.line)
                                   for a in ev.code.assigns_to(name))
    steps = any(inner.contains(c.line) and c.func.endswith(".step") for c in ev.code.calls)
    move = plan("move_backward_after_loop", line=backward_line, loop_line=inner.line, with_step=reset)
    return list([*first, *([item, move] if steps and not reset else [move, item])])
