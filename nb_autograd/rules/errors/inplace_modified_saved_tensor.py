"""A tensor autograd saved for the backward pass was changed in place before the backward ran."""
from __future__ import annotations

import re
from collections import Counter

from ...evidence import Evidence
from ...evidence.errors import FACTORIES, InplaceOp, read_errors
from ...fixes.plan import plan
from ..second_backward._optimizer_steps import depends_on, is_step, owners
from ..base import Hit
from .inplace_modified_saved_tensor_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "inplace_modified_saved_tensor"
SYMPTOM = "inplace_modified"

def _producer_lines(ev: Evidence) -> frozenset[int]:
    """Where the modified tensor may have been made: the lines of the graph's nodes of the op
    the message names (watcher)."""
    producer = ev.symptom.get("producer") if ev.symptom else ""
    graph = ev.failure.graph if ev.failure else None
    if not producer or graph is None:
        return frozenset()
    changed = set(graph.modified)  # the runtime unpacked the saved tensors: these were written since
    return frozenset(n.line for n in graph.nodes if n.op.startswith(producer) and n.line and (not changed or n.id in changed))


# The message's "output 0 of Div" names the op that produced the saved tensor. When that op
# was itself in place (`x /= 2`, `ReLU(inplace=True)`), the saved version counts its write
# ("expected version 1"): the op written with that operator made the tensor, and the write
# that broke it comes later, unless that op wrote into its function's argument: then the
# saved tensor is the caller's, which the caller goes on writing, and the fix is to stop
# aliasing it there. Otherwise an op written with the producer's operator is the likely
# writer (`h = sigmoid(z); h.sigmoid_()`).
_WRITES = {"Div": ("/=", "div_"), "Mul": ("*=", "mul_"), "Add": ("+=", "add_"), "Sub": ("-=", "sub_"),
           "Relu": ("relu", "inplace"), "Threshold": ("relu", "threshold"), "Sigmoid": ("sigmoid_",),
           "Tanh": ("tanh_",), "Clamp": ("clamp_",), "Pow": ("**=", "pow_"), "Exp": ("exp_",)}


def _score(ev: Evidence, op: InplaceOp, made_at: frozenset[int], producer_wrote: bool, in_group: bool) -> float:
    producer = ev.symptom.get("producer")
    score = 0.7
    if producer and any(w in op.text for w in _WRITES.get(producer.removesuffix("Backward0"), ())):
        score += -0.15 if producer_wrote and not _writes_callers_tensor(ev, op) else 0.15
    if in_group:
        score += 0.1 - 2 * op.line / 1e6  # as many writes into this name as the version moved on: the first
    if producer and _allocated_here(ev, op):  # a fresh buffer is no op's output: not the tensor the message names
        score -= 0.3
    made_here = {a.line for a in ev.code.assigns_to(op.target)} if op.target else set()
    if made_at & made_here or not made_at and _made_by_producer(ev, op, producer):
        score += 0.2
    written = ev.failure.written_by if ev.failure else ()
    buffers = {t.rsplit(".", 1)[-1] for t in ev.failure.written_tensors} if ev.failure and not written else set()
    if buffers and op.target:  # the runtime found a buffer of that shape and version (MoCo's queue): its writer
        score += 0.5 if op.kind != "step" and op.target.rsplit(".", 1)[-1] in buffers else -0.2
    if op.kind == "step" and written:  # the runtime found whose parameter it is: that optimizer's step
        score += 0.5 if op.target in written else -0.3
        if op.target in written and len(written) > 1:  # twin critics both reached: the first step broke the graph
            score -= 2 * op.line / 1e6
    elif op.kind == "step":
        score += 0.2 if producer in {"AsStrided", "T", "", "TBackward0"} or not producer else -0.3
    if op.kind == "step" and ev.line is not None and op.line > ev.line:  # only through the loop's wrap-around:
        score -= 0.05                                                  # a step between the forward and this backward comes first
    elif op.kind == "inplace_kw" and made_at and op.line <= max(made_at):
        score += 0.1
    return score + op.line / 1e6  # the latest write wins a tie


def _made_by_producer(ev: Evidence, op: InplaceOp, producer: str | None) -> bool:
    """Without the graph: the name `op` writes was last assigned, in its function, from a call
    of the op the message names (`res1 = torch.exp(...)` then `res1 += ...` for "output 0 of
    ExpBackward0"): the likely saved tensor."""
    name = (producer or "").removesuffix("Backward0").removesuffix("Backward1").lower()
    last = _last_assign_before(ev, op)
    return bool(name) and last is not None and (last.call or "").rpartition(".")[2].lower() == name


def _last_assign_before(ev: Evidence, op: InplaceOp):
    """The last assignment, in `op`'s function, of the name `op` writes into; None if none."""
    before = [a for a in ev.code.assigns_to(op.target or "") if a.line < op.line
              and ev.code.function_at(a.line) is ev.code.function_at(op.line)]
    return max(before, key=lambda a: a.line) if before else None


def _allocated_here(ev: Evidence, op: InplaceOp) -> bool:
    """The name `op` writes was last assigned, in its function, from a factory
    (`outputs = torch.empty_like(inputs)`, then `outputs[:, idx] = ...`): a tensor no graph op made."""
    last = _last_assign_before(ev, op)
    return last is not None and (last.call or "").rpartition(".")[2] in FACTORIES


def _companion_writes(ev: Evidence, line: int) -> tuple[int, ...]:
    """The saved tensor took more writes than the one at `line` (the version moved on by more
    than one): the same write into other names in that function (`widths /= s`, then
    `heights /= s`, on two slices of one output), nearest first, as many as are missing."""
    versions = _versions(ev)
    missing = versions[0] - versions[1] - 1 if versions else 0
    ops = read_errors(ev.capture.source).inplace_before(ev.line) if missing > 0 else ()
    op = next((o for o in ops if o.line == line and o.target), None)
    if op is None:
        return ()
    tail = lambda o: o.text.partition(o.target)[2]  # noqa: E731  (the operator and what it writes)
    alike = sorted((o for o in ops if o.kind == op.kind and o.function == op.function and o.target
                    and o.target != op.target and tail(o) == tail(op)), key=lambda o: abs(o.line - line))
    return tuple(sorted(o.line for o in alike[:missing])) if len(alike) >= missing else ()


def _versions(ev: Evidence) -> tuple[int, int] | None:
    """(version now, version expected) of the saved tensor, when the message says."""
    s = ev.symptom
    now, expected = (s.get("version_now"), s.get("version_expected")) if s else (None, None)
    return (int(now), int(expected)) if str(now).isdigit() and str(expected).isdigit() else None


def _writes_callers_tensor(ev: Evidence, op: InplaceOp) -> bool:
    """`op` writes into a parameter of the function it is in (`def forward(self, x): x /= n`)."""
    f = ev.code.function_at(op.line)
    if f is None or f.name != op.function:
        return False
    return op.target in (f.params[1:] if f.params[:1] == ("self",) else f.params)


def match(ev: Evidence) -> Hit | None:
    if ev.line is None:
        return None
    facts = read_errors(ev.capture.source)
    ops = facts.inplace_before(ev.line)
    loops = [(a, b) for a, b, kind in ev.scopes if kind == "loop" and a <= ev.line <= b]
    # a step later in a loop around the backward runs before its next pass (found by the runtime)
    ops += tuple(op for op in facts.inplace if op.kind == "step" and op not in ops and ev.failure.written_by
                 and op.target in ev.failure.written_by and any(a <= op.line <= b for a, b in loops))
    if not ops:
        return Hit(CAUSE, ev.line, 0.4, facts=_facts(ev, None), variant="unknown")
    made_at = _producer_lines(ev)
    versions = _versions(ev)
    jump = versions[0] - versions[1] if versions else 0  # writes the saved tensor took after it was saved
    producer_wrote = versions is not None and versions[1] >= 1  # its own write is counted in what was saved
    group = Counter((o.target, o.function) for o in ops if o.target)
    op = max(ops, key=lambda o: _score(ev, o, made_at, producer_wrote, jump > 1 and group[o.target, o.function] == jump))
    return Hit(CAUSE, op.line, 0.9, facts=_facts(ev, op), related=(("backward", ev.line),),
               variant=op.kind)


def _facts(ev: Evidence, op: InplaceOp | None) -> tuple[tuple[str, str], ...]:
    s = ev.symptom
    return (("op", op.text if op else "?"), ("name", op.target if op else "?"),
            ("line", str(op.line if op else ev.line)), ("backward_line", str(ev.line)),
            ("tensor", s.get("tensor", "?")), ("producer", s.get("producer", "?")),
            ("version_now", s.get("version_now", "?")), ("version_expected", s.get("version_expected", "?")))


def _loss_line(ev: Evidence) -> int | None:
    site = ev.backward_site
    if site is None:
        return None
    made = [a.line for name in site.names for a in ev.code.assigns_to(name) if a.line < site.line]
    return max(made) if made else None


def _same_optimizer(ev: Evidence, step_line: int) -> bool:
    """The step that broke the graph is the same call as the step after the failing backward
    (a GAN steps two optimizers: there the second loss is recomputed instead)."""
    steps = [c for c in ev.code.calls if c.func.endswith(".step")]
    here = next((c.func for c in steps if c.line == step_line), None)
    return here is not None and any(c.func == here for c in steps if c.line > (ev.line or 0) and c.line != step_line)


def _stepped_models(ev: Evidence, step_line: int) -> set[str]:
    """What the optimizer stepped at `step_line` trains (`Adam(D.parameters())` -> {"D"})."""
    read = set().union(*(owners(ev, c) for c in ev.code.calls if c.line == step_line and is_step(c)))
    return {o.removesuffix(".parameters") for o in read if o.endswith(".parameters")}


def _models_trained_after(ev: Evidence, step_line: int) -> set[str]:
    """What the other optimizers stepped after the failing backward train: that loss's own
    model (a GAN's generator, when the stepped one is the discriminator)."""
    here = {c.receiver for c in ev.code.calls if c.line == step_line and is_step(c)}
    later = {c.line for c in ev.code.calls if c.line > (ev.line or 0) and is_step(c) and c.receiver not in here}
    return set().union(*(_stepped_models(ev, line) for line in later))


def _recompute_chain(ev: Evidence, step_line: int) -> tuple[int, ...]:
    """The statements before the step, from the stepped model's call to the failing loss (a
    GAN's `d_fake = D(fake)`, `g_loss = bce(d_fake, ones)`): computed again after the step,
    they go through the updated model. () unless the loss trains another model whose output
    the stepped one only reads (the generator's loss through D); a loss of a model downstream
    of the stepped one (a discriminator on a VAE's latent) keeps its forward and the step moves."""
    site, models, own = ev.backward_site, _stepped_models(ev, step_line), _models_trained_after(ev, step_line)
    if site is None or not models or not own:
        return ()
    f = ev.code.function_at(step_line)
    start = f.line if f else 0
    needed = depends_on(ev, set(site.names), ev.line, start)
    # `main.q` stepped, `main.policy` trained after: one call `main(obs)` computes both (DDPG)
    roots = {m.split(".")[0] for m in models}
    models, own = models | roots, own | ({o.split(".")[0] for o in own} - roots)
    chain, made = [], set()
    for a in sorted(ev.code.assigns, key=lambda a: a.line):
        if not start <= a.line < step_line or not set(a.targets) & needed or ev.code.function_at(a.line) != f:
            continue
        if a.reads & models or a.reads & made:
            if a.reads & own:
                return ()
            chain.append(a.line)
            made |= set(a.targets)
    return tuple(chain)


def _made_before_loop(ev: Evidence, step_line: int) -> tuple[int, ...]:
    """A tensor the failing loss reads that the stepped model made before the loop holding the
    step and the backward (a GAN's fake from the discriminator's loop, reused by each generator
    step): computed again after each step, it goes through the updated model."""
    site, models = ev.backward_site, _stepped_models(ev, step_line)
    loops = [l for l in ev.code.loops_at(step_line) if l.contains(ev.line)] if site and models else []
    if not loops:
        return ()
    loop = loops[-1]
    needed = depends_on(ev, set(site.names), ev.line, loop.line)
    if not any(loop.contains(a.line) for n in site.names for a in ev.code.assigns_to(n)):
        needed = depends_on(ev, needed, loop.line, 0)  # the loss itself is made before the loop
    made = [a for a in ev.code.assigns if a.line < loop.line and set(a.targets) & needed and a.reads & models
            and not any(loop.contains(b.line) for n in a.targets for b in ev.code.assigns_to(n))]
    if not made:
        return ()
    first = max(made, key=lambda a: a.line)
    # the loss itself made before the loop too (in the cell above): everything from the model's
    # call down to it is computed again
    chain, names = [first.line], set(first.targets)
    for a in sorted(ev.code.assigns, key=lambda a: a.line):
        if first.line < a.line < loop.line and a.reads & names and set(a.targets) & needed:
            chain.append(a.line)
            names |= set(a.targets)
    return tuple(chain)


def _list_of_tensors(ev: Evidence, name: str) -> bool:
    """`name` was built as a Python list (`[conv(x) for ...]`, `[]`, `list(...)`)."""
    made = [ev.code.line_text(a.line) for a in ev.code.assigns_to(name)]
    return bool(made) and all(re.search(rf"{re.escape(name)}\s*=\s*(\[|list\()", t) for t in made)


def _step_cell_apart(ev: Evidence, step_line: int) -> bool:
    """The step ran in a cell of its own, with no backward of its own: the notebook's cells
    split one training step, and the user ran the step cell before the backward it belongs
    after. Moving the step after that backward is the step as written; recomputing the loss
    would change what each update sees. (A step beside its own backward is in its place:
    the loss built before it is what is stale.)"""
    if not ev.joined or ev.line is None:
        return False
    program = ev.program
    step, failing = program.piece_at(step_line), program.piece_at(ev.line)
    if step is None or failing is None or step is failing:
        return False
    return not any(program.piece_at(b.line) is step for b in ev.code.backwards)


def _other_steps_written(ev: Evidence, step_line: int) -> tuple[int, ...]:
    """The steps, besides the one at `step_line`, of the other optimizers the runtime found
    holding a parameter the failing graph saved (twin critics: `min(qf_1(s, a), qf_2(s, a))`),
    between it and the failing backward in the same function: moved, they all wait for it."""
    written = ev.failure.written_by if ev.failure else ()
    here = ev.code.function_at(step_line)
    return tuple(sorted({c.line for c in ev.code.calls if is_step(c) and c.receiver in written and c.line != step_line
                         and step_line < c.line < (ev.line or 0) and ev.code.function_at(c.line) == here}))


def plans(hit: Hit, ev: Evidence) -> list:
    line, facts = hit.line, dict(hit.facts)
    plans = []
    if hit.variant == "step":
        loss_line = _loss_line(ev)
        chain = _recompute_chain(ev, line) or _made_before_loop(ev, line)
        # An earlier backward on a separate graph (no retain_graph), as in a GAN step, or a loss
        # that goes through the stepped model (the generator's loss through D): the failing
        # loss should be computed again from the updated parameters.
        earlier = [b for b in ev.code.backwards if b.line < line and b.line != ev.line and not b.retain_graph]
        move = plan("move_step_after_backward", facts=facts, step_line=line, backward_line=ev.line,
                    others=_other_steps_written(ev, line))
        recompute = [plan("recompute_after_step", facts=facts, lines=chain, step_line=line)] if chain else \
            [plan("recompute_after_step", facts=facts, loss_line=loss_line, step_line=line)] \
            if loss_line and loss_line < line else []
        plans = [*recompute, move] if (earlier or chain) and not _step_cell_apart(ev, line) else [move, *recompute]
        if _same_optimizer(ev, line):  # one objective in two halves: one backward, one step
            if earlier:
                plans.insert(0, plan("sum_losses", first_line=earlier[-1].line, line=ev.line, across_step=True))
            else:
                plans = [move, *recompute]
    elif hit.variant == "setitem":
        plans = [plan("clone_before_write", facts=facts, line=line, name=hit.fact("name"))]
        if _list_of_tensors(ev, hit.fact("name")):  # `laterals[i] += up`: the element is written in place;
            plans.insert(0, plan("out_of_place", facts=facts, line=line))  # the list may take a new one
    elif hit.variant == "inplace_kw":  # `inplace=True` layers often come in pairs (LeakyReLU then Dropout):
        # dropping every such flag computes the same values and cannot leave the next one behind
        plans = [plan("out_of_place", title="out_of_place_all_flags", facts=facts, line=line, every_flag=True),
                 plan("out_of_place", facts=facts, line=line)]
    elif hit.variant in {"augassign", "method", "functional"}:
        also = _companion_writes(ev, line)
        ops = {o.line: o.target for o in read_errors(ev.capture.source).inplace}
        plans = [plan("out_of_place", title="out_of_place_together", facts={**facts, "names": ", ".join(
            f"`{ops[l]}`" for l in also)}, line=line, also=also)] if also else []
        plans.append(plan("out_of_place", facts=facts, line=line))
        text = ev.code.line_text(line).strip()
        if hit.variant == "augassign" and sum(t.strip() == text for t in ev.code.lines) > 1:  # written alike elsewhere
            plans.insert(0, plan("out_of_place", title="out_of_place_twins", facts=facts, line=line, twins=True))
    return list(plans)
