"""How the in-place rule fixes an optimizer step that wrote weights a later backward still
needed: move the step after that backward, or compute the loss again from the updated
weights (a GAN's generator loss through the stepped discriminator). Kept apart: the rule
module stays small."""
from __future__ import annotations

from ...evidence import Evidence
from ...fixes.plan import plan
from ..base import Hit
from ..second_backward._optimizer_steps import depends_on, is_step, owners


def step_plans(hit: Hit, ev: Evidence, facts: dict) -> list:
    """The fix plans for a step at `hit.line`, the likelier first."""
    line = hit.line
    loss_line = _loss_line(ev)
    others = _other_steps_written(ev, line)
    chain = _recompute_chain(ev, (line, *others)) or _made_before_loop(ev, line)
    after = max((line, *others)) if chain else line  # twin critics: after the last step that wrote it
    # An earlier backward on a separate graph (no retain_graph), as in a GAN step, or a loss
    # that goes through the stepped model (the generator's loss through D): the failing
    # loss should be computed again from the updated parameters.
    earlier = [b for b in ev.code.backwards if b.line < line and b.line != ev.line and not b.retain_graph]
    move = plan("move_step_after_backward", facts=facts, step_line=line, backward_line=ev.line, others=others)
    recompute = [plan("recompute_after_step", facts=facts, lines=chain, step_line=after)] if chain else \
        [plan("recompute_after_step", facts=facts, loss_line=loss_line, step_line=line)] \
        if loss_line and loss_line < line else []
    plans = [*recompute, move] if (earlier or chain) and not _step_cell_apart(ev, line) else [move, *recompute]
    if _same_optimizer(ev, line):  # one objective in two halves: one backward, one step
        if earlier:
            plans.insert(0, plan("sum_losses", first_line=earlier[-1].line, line=ev.line, across_step=True))
        else:
            plans = [move, *recompute]
    return plans


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


def _models_trained_after(ev: Evidence, step_lines: tuple[int, ...]) -> set[str]:
    """What the other optimizers stepped after the failing backward train: that loss's own
    model (a GAN's generator, when the stepped one is the discriminator)."""
    here = {c.receiver for c in ev.code.calls if c.line in step_lines and is_step(c)}
    later = {c.line for c in ev.code.calls if c.line > (ev.line or 0) and is_step(c) and c.receiver not in here}
    return set().union(*(_stepped_models(ev, line) for line in later))


def _recompute_chain(ev: Evidence, step_lines: tuple[int, ...]) -> tuple[int, ...]:
    """The statements before the step, from the stepped model's call to the failing loss (a
    GAN's `d_fake = D(fake)`, `g_loss = bce(d_fake, ones)`): computed again after the step,
    they go through the updated model. () unless the loss trains another model whose output
    the stepped one only reads (the generator's loss through D); a loss of a model downstream
    of the stepped one (a discriminator on a VAE's latent) keeps its forward and the step moves.
    `step_lines`: the step that broke the graph, then the other steps the runtime found writing
    what it saved (twin critics), all before the backward."""
    site, own = ev.backward_site, _models_trained_after(ev, step_lines)
    models = set().union(*(_stepped_models(ev, line) for line in step_lines))
    step_line = max(step_lines)
    if site is None or not models or not own:
        return ()
    f = ev.code.function_at(step_line)
    start = f.line if f else 0
    needed = depends_on(ev, set(site.names), ev.line, start)
    # `main.q` stepped, `main.policy` trained after: one call `main(obs)` computes both (DDPG)
    root = lambda names: {n.split(".")[0] for n in names} - {"self"}  # noqa: E731  (a trainer's `self.qf1` is no call of `self`)
    models, own = models | root(models), own | (root(own) - root(models))
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
