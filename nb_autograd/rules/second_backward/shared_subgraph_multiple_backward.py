"""Two losses share part of a graph and each gets its own backward (the GAN step without detach)."""
from __future__ import annotations

from ...evidence import Evidence
from ...evidence.errors import FACTORIES, read_errors
from ..base import Hit
from ._detach_first_input import input_of_first_only
from ._detach_second import closure, stale_read_by_first, stale_read_by_second
from ._library_backward import library_argument
from ._optimizer_steps import depends_on as _depends_on, step_between, trained_after, trained_between
from ._per_step import per_step_losses
from ._task_grads import per_loss_grads, task_grads
from ._through_calls import shared_through_calls
from .shared_subgraph_multiple_backward_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "shared_subgraph_multiple_backward"
SYMPTOM = "second_backward"


def shared_tensor(ev: Evidence, first_line: int) -> tuple[str, int] | None:
    """A tensor made before the first backward's loss that both losses read: (name, line)."""
    return next(iter(shared_tensors(ev, first_line)), None)


def shared_tensors(ev: Evidence, first_line: int) -> list[tuple[str, int]]:
    """Every such tensor (`fake_img1`, `fake_img2`), the latest made first."""
    first = next((b for b in ev.code.backwards if b.line == first_line), None)
    site = ev.backward_site
    if first is None or site is None:
        return []
    start = max((l.line for l in ev.code.loops_at(first_line)), default=0)
    used_first = _depends_on(ev, set(first.names), first_line, start)
    # a name assigned again before the second loss (`kl_loss = ...` in the next cell) holds a new
    # value there: it is not what the first loss used
    again = {n for a in ev.code.assigns if first_line < a.line <= site.line for n in a.targets}
    late = _depends_on(ev, set(site.names), site.line, first_line)
    # a second loss computed before the first backward (`loss_g = ...; loss_d = ...`, then both
    # backward calls) read its inputs there
    used_second = (late | _depends_on(ev, late - again, first_line, start)) - again
    made_without_grad = {line for line, _, given in read_errors(ev.capture.source).leaves if not given}
    here = ev.code.function_at(first_line)
    found = []
    for a in sorted(ev.code.assigns, key=lambda a: -a.line):
        elsewhere = (f := ev.code.function_at(a.line)) is not None and f != here
        if start <= a.line < first_line and a.call and not a.detached and not _in_init(ev, a.line) \
                and not _data(a, made_without_grad):
            for name in a.targets:
                if elsewhere and "." not in name:
                    continue  # another function's own local (a caller's `value_loss`), not an attribute
                if ev.failure and ev.failure.holders and not ev.holders_of(name):
                    continue  # the runtime read the names holding the graph: this is not one
                # made by the first loss's own statement (`logits, loss = model(x, y)`) counts as used by it
                made_with = set(a.targets) & set(first.names)
                if (name in used_first or made_with) and name in used_second and name not in first.names:
                    found.append((name, a.line))
    return found


def _data(a, made_without_grad: set[int]) -> bool:
    """`labels = torch.randint(...)`: made by a tensor factory itself, without requires_grad."""
    return a.line in made_without_grad and (a.call or "").rpartition(".")[2] in FACTORIES


def _in_init(ev: Evidence, line: int) -> bool:
    """Set up in a constructor (`self.crit = nn.BCELoss()`): a module, not a tensor of the step."""
    return getattr(ev.code.function_at(line), "name", "") == "__init__"


def _part_of_before_loop_tensor(ev: Evidence) -> tuple[str, int] | None:
    """backward() on a piece (`y[0, i]`, `losses[k]`) of a tensor made once before the loop."""
    site, loop = ev.backward_site, ev.loop
    if site is None or loop is None or site.receiver in site.names:
        return None
    for name in sorted(n for n in site.names if site.receiver.startswith(n + "[")):  # a piece of it, not a loss computed from it
        assigns = ev.code.assigns_to(name)
        before = [a.line for a in assigns if a.line < loop.line and a.call]
        if before and not any(loop.contains(a.line) for a in assigns) and ev.reaches_stale(name):
            return name, max(before)
    return None


def _losses_of_one_update_in_loop(ev: Evidence) -> tuple[str, int] | None:
    """Each iteration of a loop without an optimizer step backpropagates its own loss through
    a tensor made before the loop that the optimizer trains (experts over a shared trunk)."""
    from .computed_before_loop import before_loop_names, one_update_of_several_losses

    if ev.loop is None or not ev.has_runtime_staleness:
        return None
    for name, line in reversed(before_loop_names(ev)):
        if ev.stale_holder(name) and one_update_of_several_losses(ev, line):
            return name, line
    return None


def match(ev: Evidence) -> Hit | None:
    site = ev.backward_site
    if site is None:  # a library the line calls ran the backward: it gets a detached copy
        passed = library_argument(ev)
        return passed and Hit(CAUSE, passed[1], 0.8, facts=(
            ("line", str(ev.line)), ("first_line", str(passed[2])), ("name", passed[0]), ("shared", passed[0]),
            ("shared_line", str(passed[1]))), related=(("first_backward", passed[2]),), variant="library_backward")
    if per_loss_grads(ev):
        return Hit(CAUSE, site.line, 0.85, facts=(("line", str(site.line)), ("first_line", str(site.line)),
                                                  ("name", site.receiver), ("loop_line", str(ev.loop.line))),
                   variant="per_loss_grads")
    grads = task_grads(ev)
    if grads:
        return Hit(CAUSE, site.line, 0.85, facts=(("line", str(site.line)), ("first_line", str(grads[0])),
                                                  ("name", site.receiver), ("lines", ",".join(map(str, grads)))),
                   related=(("first_backward", grads[0]),), variant="task_grads")
    if site is None or ev.same_root_call or ev.freed_by_grad_only or ev.replayed_stores:
        return None  # a replayed stale tensor (a GAN's history pool) is reuse, not a shared subgraph
    one_update = _losses_of_one_update_in_loop(ev)
    if one_update:
        return Hit(CAUSE, site.line, 0.87, facts=(("line", str(site.line)), ("first_line", str(site.line)),
                                                  ("name", site.receiver), ("shared", one_update[0]),
                                                  ("shared_line", str(one_update[1])), ("loop_line", str(ev.loop.line))),
                   related=(("shared", one_update[1]),), variant="sum_in_loop")
    per_step = per_step_losses(ev)
    if per_step:  # a decoder's loss per time step, one optimizer step after the loop
        (state, _, _), step_line = per_step
        return Hit(CAUSE, site.line, 0.87, facts=(("line", str(site.line)), ("first_line", str(site.line)),
                                                  ("name", site.receiver), ("shared", state), ("loop_line", str(ev.loop.line)),
                                                  ("step_line", str(step_line))), variant="per_step")
    part = _part_of_before_loop_tensor(ev)
    if part:
        return Hit(CAUSE, site.line, 0.87, facts=(("line", str(site.line)), ("first_line", str(site.line)),
                                                  ("name", site.receiver), ("shared", part[0]),
                                                  ("shared_line", str(part[1]))),
                   related=(("shared", part[1]),), variant="parts_in_loop")
    if ev.freed_in_same_pass:
        first_line, score = ev.freeing_calls[0].line, 0.8
    elif not ev.has_runtime_staleness:
        earlier = [b for b in ev.code.backwards if b.line < site.line and b.receiver != site.receiver
                   and ev.code.loops_at(b.line) == ev.code.loops_at(site.line)]
        if not earlier:
            return None
        first_line, score = earlier[-1].line, 0.5
    else:
        return None
    shared = shared_tensor(ev, first_line) if first_line else None
    facts = [("line", str(site.line)), ("first_line", str(first_line)), ("name", site.receiver)]
    second = stale_read_by_second(ev) if shared is None else None
    if second:  # the losses' functions share no name; the runtime says the failing one needs no gradient through it
        facts += [("shared", second[0]), ("second_lines", ",".join(map(str, second[1])))]
        return Hit(CAUSE, max(second[1]), score, facts=tuple(facts), related=(("first_backward", first_line),),
                   variant="detach_second")
    read_first = stale_read_by_first(ev) if shared is None or not _first_reads(ev, first_line, shared[0]) else None
    if read_first:  # the critic's step first: its loss takes the generator's output detached
        facts += [("shared", read_first[0]), ("first_lines", ",".join(map(str, read_first[1])))]
        return Hit(CAUSE, max(read_first[1]), score, facts=tuple(facts), related=(("first_backward", first_line),),
                   variant="detach_first")
    baseline = input_of_first_only(ev, first_line) if shared is None and first_line else None
    if baseline:  # the first loss reads, as an input, a tensor made from what the second needs
        facts += [("shared", baseline[0]), ("first_lines", ",".join(map(str, baseline[1])))]
        return Hit(CAUSE, max(baseline[1]), score, facts=tuple(facts), related=(("first_backward", first_line),),
                   variant="detach_first_input")
    if shared:
        facts += [("shared", shared[0]), ("shared_line", str(shared[1]))]
    related = (("first_backward", first_line),) + ((("shared", shared[1]),) if shared else ())
    if shared and step_between(ev, first_line, site.line) and \
            (ev.freeing_trains_only_shared or trained_between(ev, shared[0], first_line, site.line)):
        # a detach in the first loss would leave it nothing (or untrain what the step in between
        # trains); the second loss gets its own copy or a detached one. Named where that fix
        # starts: the line that made it when an input is detached there too (a reused
        # discriminator output), else the second loss
        second = _second_loss_lines(ev, shared, site.line)
        detach_at_made = any(not trained_between(ev, n, first_line, site.line) for n in _stale_inputs(ev, shared))
        root = shared[1] if detach_at_made else \
            max((a.line for a in ev.code.assigns if a.line in second and shared[0] in a.reads), default=site.line)
        return Hit(CAUSE, root, score, facts=tuple(facts), related=related, variant="recompute_shared")
    detach = _detach_where(ev, first_line, site.line, shared)
    # named where the fix goes: the first loss taking in the shared tensor when it is to be
    # detached there (the GAN's discriminator loss), else the first backward (the one that
    # frees what the second needs: it becomes the one backward of the sum)
    root = max((a.line for a in ev.code.assigns if a.line in detach[1] and detach[0] in a.reads),
               default=site.line) if detach else first_line or site.line
    return Hit(CAUSE, root, score, facts=tuple(facts), related=related,
               variant="detach_shared" if shared else "sum_losses")


def _detach_in_second(ev: Evidence, shared: tuple[str, int], first: int, line: int) -> bool:
    """The first loss trains what made the shared tensor, and the second loss's step trains
    nothing it was made from (a discriminator update on the generator's fake)."""
    return trained_between(ev, shared[0], first, line) and not trained_after(ev, shared, line)


def _stale_inputs(ev: Evidence, shared: tuple[str, int]) -> tuple[str, ...]:
    """Names the shared tensor was made from whose own graph an earlier backward also freed."""
    made = next((a for a in ev.code.assigns if a.line == shared[1] and shared[0] in a.targets), None)
    return tuple(sorted(n for n in (made.reads if made else ()) if ev.stale_holder(n)))


def _first_reads(ev: Evidence, first: int, name: str) -> bool:
    """The first loss's own lines read `name` (not only something made from it elsewhere)."""
    site, f = next((b for b in ev.code.backwards if b.line == first), None), ev.code.function_at(first)
    lines = closure(ev, set(site.names), f.line if f else 0, first) if site else set()
    return site is not None and (name in site.names or any(name in a.reads for a in ev.code.assigns if a.line in lines))


def _rebuilt_inputs(ev: Evidence, names: set[str], before: int, line: int) -> tuple[tuple[str, int], ...]:
    """(name, line) of the statements that made `names` and, in turn, the freed inputs they
    read, latest first, when the optimizer stepped after the second backward (at `line`) trains
    what made each of `names` (a VAE-GAN's generator step on the VAE's reconstruction); () when
    it does not, or one was not made by a plain statement before `before`."""
    made = {n: max((a.line for a in ev.code.assigns_to(n) if a.line < before), default=0) for n in names}
    if not names or not all(made[n] and trained_after(ev, (n, made[n]), line) for n in names):
        return ()
    out, todo = [], sorted(names)
    while todo and len(out) < 8:
        name = todo.pop()
        made = [a for a in ev.code.assigns_to(name) if a.line < before and a.call and not a.detached]
        if not made:
            return ()
        a = max(made, key=lambda a: a.line)
        if (name, a.line) not in out:
            out.append((name, a.line))
            todo += sorted(n for n in a.reads if ev.stale_holder(n) and n not in names)
    return tuple(sorted(out, key=lambda p: -p[1])) if not todo else ()


def _second_loss_lines(ev: Evidence, shared: tuple[str, int], line: int) -> set[int]:
    """The second backward's line and the lines after `shared` was made that compute its loss."""
    return closure(ev, set(ev.backward_site.names), shared[1], line) | {line}


def _detach_where(ev: Evidence, first: int, line: int, shared: tuple[str, int] | None) -> tuple[str, set[int]] | None:
    """(name to detach, lines of the first loss to detach it in), when detaching in the first
    loss alone separates the two graphs; None otherwise."""
    through = shared_through_calls(ev, first, line) if first else None
    if through:
        return through
    first_site = next((b for b in ev.code.backwards if b.line == first), None)
    if shared is None or first_site is None or ev.backward_site is None:
        return None
    mine = closure(ev, set(first_site.names), shared[1], first - 1)
    theirs = closure(ev, set(ev.backward_site.names), shared[1], line)
    return None if mine & theirs else (shared[0], mine | {first})


def plans(hit: Hit, ev: Evidence) -> list:
    """GAN: detach the shared tensor only in the first loss (inside the first loss's function
    when a caller hands the same tensor to both; an estimate the first loss reads, made from the
    second loss's input, as an actor-critic's advantages, likewise). With an optimizer step in between that the first
    loss needs all of (SAM's second pass, a reused discriminator output, a generator step first):
    detach it for the second loss, or compute it again there. Otherwise one backward on the sum
    (same gradients), also for a loop that calls backward on each loss of a collection, or on each
    iteration's own loss before one optimizer step (collected, one backward after the loop).
    retain_graph last: both passes are meant here, but it costs memory."""
    from ...fixes.plan import plan

    first, line = int(hit.fact("first_line")), int(hit.fact("line"))  # the second backward
    if hit.variant == "library_backward":
        return [plan("add_detach", title="add_detach_read", line=line, names=(hit.fact("name"),), reads=True)]
    if hit.variant == "task_grads":  # every task's gradient, and the loss after them, through one graph
        return [plan("add_retain_graph", title="retain_for_task_grads", lines=tuple(int(l) for l in hit.fact("lines").split(",")))]
    if hit.variant == "per_loss_grads":  # the gradients are read apart on purpose: keep the graph for the next loss
        return [plan("add_retain_graph", title="retain_for_next_loss", line=line)]
    if hit.variant == "detach_second":  # a discriminator's loss on the generator's output: it takes it detached
        name = hit.fact("shared")
        return [plan("detach_shared", title="detach_shared_second", name=name, facts={"name": name},
                     lines=tuple(int(l) for l in hit.fact("second_lines").split(","))), plan("add_retain_graph", line=first)]
    if hit.variant in ("detach_first", "detach_first_input"):  # the first loss reads it as a constant
        name, others = hit.fact("shared"), [plan("add_retain_graph", line=first)]
        if hit.variant == "detach_first_input":  # (an actor-critic's advantages: one update, summing trains too)
            others.insert(0, plan("sum_losses", first_line=first, line=line))
        return [plan("detach_shared", name=name, facts={"name": name},
                     lines=tuple(int(l) for l in hit.fact("first_lines").split(","))), *others]
    plans = [plan("sum_loop_backward", line=line)]
    if hit.variant in ("sum_in_loop", "per_step"):  # one update's losses, one per iteration: sum them, one backward
        plans.append(plan("collect_loop_losses", title="sum_loop_backward", line=line, loop_line=int(hit.fact("loop_line"))))
    shared = (hit.fact("shared"), int(hit.fact("shared_line"))) if hit.variant in ("detach_shared", "recompute_shared") else None
    if hit.variant == "recompute_shared":
        lines = tuple(sorted(_second_loss_lines(ev, shared, line)))
        stale = _stale_inputs(ev, shared)
        trained = {n for n in stale if trained_between(ev, n, first, line)}
        if _detach_in_second(ev, shared, first, line):
            plans.append(plan("detach_shared", title="detach_shared_second", name=shared[0], lines=lines,
                              facts={"name": shared[0]}))
        rebuild = _rebuilt_inputs(ev, trained, shared[1], line)
        plans.append(plan("recompute_shared", name=shared[0], made_line=shared[1], lines=lines,
                          detach=tuple(n for n in stale if n not in trained),
                          detach_copy=() if rebuild else tuple(sorted(trained)), rebuild=rebuild,
                          facts={"name": shared[0]}))
    detach = _detach_where(ev, first, line, shared) if hit.variant != "recompute_shared" else None
    if detach:  # with the other shared tensors the same lines read (`cat((fake_img1, fake_img2))`)
        also = tuple(n for n, _ in shared_tensors(ev, first) if n != detach[0]
                     and any(n in a.reads for a in ev.code.assigns if a.line in detach[1])) if first else ()
        plans.append(plan("detach_shared", name=detach[0], lines=tuple(sorted(detach[1])), also=also,
                          facts={"name": detach[0]}))
    plans += [plan("sum_losses", first_line=first, line=line), plan("add_retain_graph", line=first)]
    return list(plans)
