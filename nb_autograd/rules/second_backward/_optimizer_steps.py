"""Where optimizer steps sit between two backward calls, and what each optimizer trains:
code shape that chooses how a shared tensor is fixed (detach it for one loss, or compute it
again), after the runtime has said which graph was freed."""
from __future__ import annotations

from ...evidence import Evidence


def depends_on(ev: Evidence, names: set[str], before: int, after: int) -> set[str]:
    """Close `names` over assignments made in (after, before]: what they were computed from."""
    names = set(names)
    for a in sorted(ev.code.assigns, key=lambda a: -a.line):
        if after < a.line <= before and set(a.targets) & names:
            names |= a.reads
    return names


def is_step(c) -> bool:
    """`opt.step()`, SAM's `first_step()` / `second_step()`, ASAM's `ascent_step()` /
    `descent_step()`: a method call, not `d_step(...)`."""
    return bool(c.receiver) and c.func.rsplit(".", 1)[-1] in ("step", "first_step", "second_step", "ascent_step",
                                                              "descent_step")


def _call_sites(ev: Evidence, f) -> list[int]:
    return [c.line for c in ev.code.calls if c.func == f.name or c.func.endswith("." + f.name)]


def owners(ev: Evidence, step) -> set[str]:
    """What the stepped optimizer was built from (`Adam(gen.parameters())` -> gen.parameters, ...);
    `opt_g, opt_d = ...` says not which reads are whose: nothing."""
    return {r for a in ev.code.assigns_to(step.receiver) if a.targets == (step.receiver,) for r in a.reads}


def _trains(owners: set[str], makers: set[str]) -> bool:
    """An optimizer built from `owners` trains a maker, or the module holding it (`netG.parameters()`
    trains `netG.sampler`)."""
    modules = {o.removesuffix(".parameters") for o in owners if o.endswith(".parameters")}
    return any(o == m or o.startswith(m + ".") for m in makers for o in owners) or \
        any(m.startswith(t + ".") for m in makers for t in modules)


def steps_between(ev: Evidence, first: int, line: int) -> list:
    """Optimizer steps between the two backward calls; when they sit in two functions
    (backward_D, backward_G), between the caller's calls of them."""
    f1, f2 = ev.code.function_at(first), ev.code.function_at(line)
    if f1 is not None and f2 is not None and f1 != f2:
        pairs = [(a, b) for a in _call_sites(ev, f1) for b in _call_sites(ev, f2)
                 if a < b and ev.code.function_at(a) == ev.code.function_at(b)]
        first, line = pairs[0] if pairs else (first, line)
    return [c for c in ev.code.calls if first < c.line < line and is_step(c)]


def step_between(ev: Evidence, first: int, line: int) -> bool:
    return bool(steps_between(ev, first, line))


def trained_between(ev: Evidence, name: str, first: int, line: int) -> bool:
    """Whether an optimizer stepped between the two backward calls trains what made `name`
    (`optim_g = Adam(gen.parameters())` ... `fake = gen(z)` ... `optim_g.step()`): then the first
    loss rightly went through `name`, and the second loss's fresh copy takes it detached."""
    makers = {a.call for a in ev.code.assigns_to(name) if a.call}
    return any(_trains(owners(ev, step), makers) for step in steps_between(ev, first, line))


def trained_after(ev: Evidence, shared: tuple[str, int], line: int) -> bool:
    """Whether the optimizer stepped after the second backward trains something the shared
    tensor was made from (`out = D(G(z))` for a generator step): the second loss then needs
    gradients through it. The step is looked for after `line`, else after the call of its function;
    with none found, the answer is yes (nothing says those gradients are not wanted)."""
    f = ev.code.function_at(line)
    ends = f.end_line if f else max((c.line for c in ev.code.calls), default=line)
    steps = [c for c in ev.code.calls if line < c.line <= ends and is_step(c)]
    if not steps and f is not None:
        steps = [c for site in _call_sites(ev, f) for c in ev.code.calls if c.line > site and is_step(c)
                 and ev.code.function_at(c.line) == ev.code.function_at(site)]
    if not steps:
        return True  # no step to tell what it trains (SAM's update_hessian): assume it needs them
    made = {m for m in depends_on(ev, {shared[0]}, shared[1], 0) - {shared[0]}
            if ev.code.assigns_to(m) or ev.code.assigns_to(m.split(".")[0])}  # the user's (netG, self.netD), not torch
    return _trains(owners(ev, steps[0]), made)
