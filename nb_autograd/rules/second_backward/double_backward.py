"""backward() or autograd.grad() ran twice from the very same graph."""
from __future__ import annotations

from ...evidence import Evidence
from ...evidence.program import RERUN
from ..base import Hit
from ._per_part import gradient_per_part
from .double_backward_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "double_backward"
SYMPTOM = "second_backward"


def match(ev: Evidence) -> Hit | None:
    part_of = gradient_per_part(ev)
    if part_of is not None:  # a Jacobian row by row: every pass is meant, the graph is kept to the last
        return Hit(CAUSE, ev.line, 0.97, facts=(("name", part_of), ("line", str(ev.line)),
                                                ("loop_line", str(ev.loop.line))),
                   related=(("loop", ev.loop.line),), variant="per_part")
    first = ev.same_root_call
    site = ev.backward_site
    if first is None and ev.freed_by_grad_only and ev.failing_call and ev.failing_call.kind == "backward":
        first = ev.freeing_calls[0]  # grad() freed the graph this backward shares
    inside = None
    if first is None:
        first = inside = _backpropagated_loss_inside(ev)
    if first is None:
        return _same_statement_again(ev)
    if ev.repeated_root_before_loop:
        if not ev.joined:
            return None  # in one cell: a loss built before its loop (computed_before_loop)
        # a notebook: the same loss, made in an earlier cell, backpropagated again by a
        # re-run or a later cell; the root is where it was made
        name, made = ev.repeated_root_before_loop
        return Hit(CAUSE, made, 0.97, facts=(("name", name), ("first_line", str(first.line or "?")),
                                             ("line", str(ev.line)), ("first_kind", first.kind)),
                   related=(("backward", ev.line),), variant="in_loop")
    line = ev.line
    if ev.failing_call and ev.failing_call.kind == "grad" and first.kind == "backward" and first.line \
            and not _reads_stored_grads(ev):
        line = first.line  # grad() of what backward() already did, on tensors with no .grad: the backward goes
    elif ev.failing_call and ev.failing_call.kind == "backward" and first.kind == "grad" and first.line and not inside:
        line = first.line  # grad() freed what the backward needs (a gradient penalty): the fix goes on the grad() call
    # a running total grown from the backpropagated loss is the accumulated-loss rule's (0.9)
    return Hit(CAUSE, line, 0.85 if inside else 0.97,
               facts=(("name", site.receiver if site else "loss"), ("first_line", str(first.line or "?")),
                      ("line", str(ev.line)), ("first_kind", first.kind), ("inside", "1" if inside else "")),
               related=(("first_backward", first.line),) if first.line else (),
               variant="in_loop" if ev.loop and first.stack_lines == ev.failing_call.stack_lines else first.kind)


def _same_statement_again(ev: Evidence) -> Hit | None:
    """A notebook cell run again (`l.sum().backward()`, with other cells run in between) whose
    backward freed part of the graph the second run needs: the statement that ran and freed it
    is this very one (the same cell and line, a runtime fact), and the tensor it reduces was not
    made again in between. The root is where that tensor was made."""
    call, site = ev.failing_call, ev.backward_site
    if not (ev.joined and call and site and ev.freeing_calls) or ev.loop is not None:
        return None
    first = ev.freeing_calls[-1]
    if first.stack != call.stack or first.line is None or first.line >= ev.line:
        return None
    names = [n for n in site.names if "." not in n]
    made = [max((a.line for a in ev.code.assigns_to(n) if a.line < first.line), default=None) for n in names]
    if not names or None in made or any(first.line < a.line < ev.line for n in names for a in ev.code.assigns_to(n)):
        return None
    name, line = max(zip(names, made), key=lambda nm: nm[1])
    return Hit(CAUSE, line, 0.95, facts=(("name", name), ("first_line", str(first.line)), ("line", str(ev.line)),
                                         ("first_kind", first.kind), ("made_line", str(line))),
               related=(("backward", ev.line), ("first_backward", first.line)), variant="rerun")


def _backpropagated_loss_inside(ev: Evidence):
    """An earlier call whose root is itself a node of the failing graph: this loss is computed
    from a loss already backpropagated (`(loss / k).backward()` after `loss.backward()`, two
    hooks each running backward on `outputs['loss']`). A runtime fact: the ids match."""
    graph = ev.failure.graph if ev.failure else None
    if graph is None:
        return None
    ids = {n.id for n in graph.nodes}
    return next((c for c in ev.freeing_calls if c.root_ids and set(c.root_ids) <= ids and not c.retain_graph), None)


def _reads_stored_grads(ev: Evidence) -> bool:
    """The failing grad() can be replaced by reading the `.grad` the backward stored (its
    inputs are leaves); otherwise (MAML's fast weights) the backward is the one that goes."""
    from ...fixes.read_stored_grads import read_stored_grads

    call = next((c for c in ev.code.calls if c.line == ev.line and c.func.endswith("grad")), None)
    loss = set(ev.backward_site.names) if ev.backward_site else set()
    computed = any(a.call is None and a.reads for n in (call.arg_names - loss if call else ()) for a in ev.code.assigns_to(n))
    return not computed and read_stored_grads(ev.capture.source, line=ev.line) is not None


def _grad_feeds_loss(ev: Evidence, grad_line: int) -> bool:
    """Is what autograd.grad() returned at `grad_line` part of the loss backpropagated later?"""
    site = ev.backward_site
    made = {n for a in ev.code.assigns if a.line == grad_line for n in a.targets}
    if site is None or not made:
        return False
    names = set(site.names)
    for a in sorted(ev.code.assigns, key=lambda a: -a.line):
        if grad_line < a.line <= site.line and set(a.targets) & names:
            names |= a.reads
    return bool(made & names)


def _helper_repeats(ev: Evidence, first: int, line: int) -> bool:
    """The repeat at `line` is in a helper that the first backward's function calls after it,
    with nothing in between that uses the gradients (a step, a .grad read): the helper is the
    one meant to backpropagate, so the caller's own backward is the one to drop."""
    caller, helper = ev.code.function_at(first), ev.code.function_at(line)
    if helper is None or caller == helper:
        return False
    end = caller.end_line if caller else len(ev.code.lines)
    calls = [c for c in ev.code.calls if first < c.line <= end and (c.func == helper.name or c.func.endswith("." + helper.name))]
    if not calls:
        return False
    if ev.code.indent(calls[0].line) > ev.code.indent(first):
        return False  # called only sometimes (`if step % k == 0: log(grad_norm(loss))`): the caller's backward must stay
    between = [c for c in ev.code.calls if first < c.line < calls[0].line]
    return not any(c.func.endswith((".step", "zero_grad")) for c in between) and \
        not any(n.endswith(".grad") for n, r in ev.code.reads if first < r < calls[0].line)


_CREATES = frozenset({"tensor", "as_tensor", "from_numpy", "ones", "zeros", "full", "empty", "rand", "randn",
                      "randint", "arange", "linspace", "eye", "ones_like", "zeros_like", "randn_like", "rand_like"})


def _made_fresh(a, earlier) -> bool:
    """A tensor created from nothing (`torch.randn(..., requires_grad=True)`, inputs) or an
    object built by a constructor (`nn.Linear(...)`, `Adam(...)`): what the loss is computed
    FROM. Copying it would start the parameters or the data again at every run. Nor a name
    made again from itself (`X, y = X.to(device), y.to(device)`) when the copied piece does
    not make it first: it moves a value made elsewhere (but `h = h.float()` after
    `h = model(x)` is part of building h)."""
    last = (a.call or "").split(".")[-1]
    if last in _CREATES or last[:1].isupper():
        return True
    moved_onto_itself = set(a.targets) <= a.reads and not a.accumulates
    return moved_onto_itself and not any(set(a.targets) & set(e.targets) for e in earlier)


def _built_by(ev: Evidence, line: int) -> tuple[int, ...]:
    """The assignments of `line`'s cell (piece) that the value made at `line` is computed from,
    and `line` itself, in order; not the tensors and objects it starts from."""
    piece = ev.program.piece_at(line) if ev.program else None
    first = piece.first if piece else 1
    assigns = sorted((a for a in ev.code.assigns if first <= a.line <= line), key=lambda a: a.line)
    made = next((a for a in assigns if a.line == line), None)
    needed, out = set(made.reads) if made else set(), [line]
    before = [a for a in assigns if a.line < line]
    for i in reversed(range(len(before))):
        a = before[i]
        if set(a.targets) & needed and ev.code.loops_at(a.line) == ev.code.loops_at(line) and not _made_fresh(a, before[:i]):
            out.append(a.line)
            needed |= set(a.reads or ())
    return tuple(sorted(out))


def plans(hit: Hit, ev: Evidence) -> list:
    """Drop a leftover repeat; build a loss made once before the loop inside it; keep the
    graph (retain_graph) only for grad() then backward(), where both passes are meant; for
    backward() then grad() of the same loss, read the gradients backward() stored."""
    from ...fixes.plan import plan

    first = int(hit.fact("first_line", "0")) if hit.fact("first_line", "").isdigit() else None
    plans = []
    if hit.variant == "per_part":
        plans.append(plan("add_retain_graph", title="retain_for_parts", line=hit.line))
    elif hit.variant == "in_loop" and ev.loop is not None:
        made = [a.line for a in ev.code.assigns_to(hit.fact("name")) if a.line < ev.loop.line]
        if made and ev.joined:  # the earlier cell ran already: build the loss afresh where it is backpropagated
            rerun = ev.code.line_text(ev.loop.line).strip().startswith(RERUN.partition("{")[0])  # a cell run again
            plans.append(plan("copy_into_loop", title="recompute_before_backward" if rerun else "recompute_in_loop",
                              lines=_built_by(ev, made[-1]), loop_line=ev.loop.line))
        elif made:
            plans.append(plan("move_into_loop", title="recompute_in_loop", line=made[-1], loop_line=ev.loop.line))
    elif hit.variant == "rerun":  # the cell that backpropagates builds it afresh each run
        plans.append(plan("copy_into_loop", title="recompute_before_backward", lines=_built_by(ev, hit.line), before=ev.line))
    elif hit.variant == "grad" and first:
        if _grad_feeds_loss(ev, first):  # a gradient penalty: its backward must go through grad()
            plans.append(plan("add_create_graph", line=first))
        plans.append(plan("add_retain_graph", line=first))
    elif hit.line and ev.failing_call and ev.failing_call.kind == "grad":  # grad() after backward()
        if hit.line == ev.line:
            plans.append(plan("read_stored_grads", line=hit.line))
        else:  # the inputs are not leaves (fast weights): drop the backward, keep the grad
            plans.append(plan("remove_repeated_backward", line=hit.line, kept=ev.line, later=False))
    elif hit.line:
        if first and _helper_repeats(ev, first, hit.line):
            plans.append(plan("remove_repeated_backward", line=first, kept=hit.line, later=False))
        # a helper defined above its caller repeats a backward that ran first at run time
        # (and when the loss repeated is computed from the first one: the runtime saw its root inside)
        kept = {"kept": first} if first and (first > hit.line or hit.fact("inside")) else {}
        plans.append(plan("remove_repeated_backward", line=hit.line, **kept))
        if hit.fact("inside") and first and any(first < c.line < hit.line and c.func.endswith("zero_grad")
                                                for c in ev.code.calls):
            # gradients zeroed, then a loss computed from the first one backpropagated: a redo
            # meant to replace them (rescaled); both passes are wanted
            plans.insert(0, plan("add_retain_graph", title="retain_for_redo", line=first))
    return list(plans)
