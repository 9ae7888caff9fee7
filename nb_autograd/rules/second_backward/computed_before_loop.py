"""A tensor computed once before the loop, with grad tracking, feeds every iteration's backward."""
from __future__ import annotations

import re

from ...evidence import Evidence
from ..base import Hit
from ._detach_second import stale_read_by_second
from ._sibling_loop import made_in_sibling_loop, ran_before, sibling_plans
from ._trained import global_reads, optimized, trained_by_optimizer
from .computed_before_loop_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "computed_before_loop"
SYMPTOM = "second_backward"


def before_loop_names(ev: Evidence) -> list[tuple[str, int]]:
    """(name, line) computed before the failing loop, read in it, never re-assigned in it."""
    loop = ev.loop
    if loop is None:
        return []
    out = []
    # the loop sits in a function the program calls later: what the top level made before
    # that call ran before the loop too (`out = encoder(x)` to check shapes, then `train()`)
    outer = ev.failure.stack_lines[0] if loop.function and ev.failure and ev.failure.stack_lines else None
    called_later = outer is not None and ev.code.function_at(outer) is None and outer > loop.line
    for a in ev.code.assigns:
        earlier = a.line < loop.line or called_later and a.line < outer and ev.code.function_at(a.line) is None
        if not earlier or a.detached or a.no_grad or (a.call is None and not a.reads):
            continue
        sibling = [l for l in ev.code.loops if l.contains(a.line) and not l.contains(loop.line)]
        for name in a.targets:
            if sibling and not (ev.stale_holder(name) and ran_before(ev, sibling[0], loop)):
                continue  # inside a sibling loop, unless the runtime found its last value freed (a GAN's
                # fake made in the discriminator's loop, reused by each generator step)
            later = [b.line for b in ev.code.assigns_to(name) if a.line < b.line < max(loop.line, a.line + 1)]
            assigned_in_loop = any(loop.contains(b.line) for b in ev.code.assigns_to(name))
            read_in_loop = any(ev.in_loop_scope(r) for r in ev.code.read_lines(name)) or \
                "." in name and ev.code.function_at(a.line) is None and ev.stale_holder(name)  # read by the module's methods
            if not later and not assigned_in_loop and read_in_loop:
                out.append((name, a.line))
    return out


def differentiated_gradient(ev: Evidence) -> tuple[str, int] | None:
    """(name, line) of a tensor made from a gradient kept with its graph (`grads =
    autograd.grad(kl, params, create_graph=True)`) that a function differentiates again on each
    call (a Hessian-vector product inside conjugate gradient): the runtime saw it stale, and
    each call's autograd.grad freed the graph the next call needs. Keeping that graph is the
    method itself, not a leak."""
    failing, graph = ev.failing_call, ev.failure.graph if ev.failure else None
    if failing is None or failing.kind != "grad" or ev.code.function_at(ev.line) is None or graph is None:
        return None
    calls = {b.line for b in ev.code.backwards if b.kind == "grad" and _keeps_graph(ev, b.line)}
    grads = {t for a in ev.code.assigns if a.line in calls for t in a.targets}
    stale = {node.line for h in ev.holders if h.stale and (node := graph.node(h.node_id)) is not None}
    made = [a for a in ev.code.assigns if a.line in stale and not a.detached
            and (a.line in calls or a.reads & grads) and ev.code.function_at(a.line) != ev.code.function_at(ev.line)]
    return (made[-1].targets[0], made[-1].line) if made and made[-1].targets else None


def _keeps_graph(ev: Evidence, line: int) -> bool:
    """The call starting at `line` passes create_graph=True (read over the lines it spans)."""
    text = ""
    for n in range(line, min(line + 6, len(ev.code.lines) + 1)):
        text += ev.code.line_text(n)
        if text.count("(") <= text.count(")"):
            break
    return re.search(r"create_graph\s*=\s*True", text) is not None


def match(ev: Evidence) -> Hit | None:
    hvp = differentiated_gradient(ev)
    if hvp is not None:  # a Hessian-vector product: each product differentiates the same gradient graph
        name, line = hvp
        return Hit(CAUSE, line, 0.9, facts=(("name", name), ("line", str(line)), ("backward_line", str(ev.line))),
                   related=(("backward", ev.line),), variant="hessian")
    cached = _cached_around_loop(ev)
    if cached is not None:  # a context that caches differentiable weights, entered once around the loop
        line, loop_line = cached
        return Hit(CAUSE, line, 0.9, facts=(("name", ev.code.line_text(line)), ("line", str(line)),
                                            ("loop_line", str(loop_line)), ("backward_line", str(ev.line))),
                   related=(("loop", loop_line), ("backward", ev.line)), variant="cached")
    repeated = ev.repeated_root_before_loop
    if repeated and ev.joined:
        return None  # the same loss backpropagated again across cells: double_backward
    if repeated:  # the loss itself was built once, before the loop: named where its forward starts
        name, line = repeated
        chain = forward_chain(ev, line, ev.loop.line)
        return Hit(CAUSE, chain[0], 0.9, facts=(("name", name), ("line", str(chain[0])), ("loop_line", str(ev.loop.line)),
                                                ("backward_line", str(ev.line)), ("chain", ",".join(map(str, chain)))),
                   related=(("loop", ev.loop.line), ("backward", ev.line)), variant="loss")
    if ev.same_root_call or ev.freed_in_same_pass or ev.backward_site is None or ev.replayed_stores:
        return None  # a stale tensor replayed from a store is not one computed before the loop
    candidates = before_loop_names(ev)
    site = ev.backward_site  # the loss backpropagated is not a candidate; the inputs of one computed inline are
    receiver = frozenset() if "(" in site.receiver else site.names
    grown = {s.container for s in ev.code.stores if not s.detached}  # a list a hook keeps appending to
    candidates = [(n, l) for n, l in candidates if n not in receiver and n not in grown]
    if ev.has_runtime_staleness:
        candidates = [(n, l) for n, l in candidates if ev.stale_holder(n)]
        score = 0.86
    else:
        score = 0.6
    if not candidates:
        return None
    name, line = candidates[-1]
    given = given_to_constructor(ev, line)
    if given is not None:  # the constructor only keeps what its caller made: that is where it was computed
        name, line = given
    if one_update_of_several_losses(ev, line):
        return None  # a shared subgraph: the losses of one update each got a backward
    sibling = made_in_sibling_loop(ev, name, line)
    if sibling:  # named where that loop's forward starts; built again in the failing loop
        chain, sibling_line = sibling
        return Hit(CAUSE, chain[0], score, facts=(("name", name), ("line", str(chain[0])), ("loop_line", str(ev.loop.line)),
                                                  ("backward_line", str(ev.line)), ("chain", ",".join(map(str, chain))),
                                                  ("sibling_line", str(sibling_line))),
                   related=(("loop", ev.loop.line), ("backward", ev.line)), variant="sibling")
    return Hit(CAUSE, line, score, facts=(("name", name), ("line", str(line)), ("loop_line", str(ev.loop.line)),
                                          ("backward_line", str(ev.line))),
               related=(("loop", ev.loop.line), ("backward", ev.line)))


_CACHED = re.compile(r"^with\s+([\w.]+\.)?cached\(\)\s*:")


def _cached_around_loop(ev: Evidence) -> tuple[int, int] | None:
    """`with parametrize.cached():` around a loop that holds the failing backward: every step
    reuses the weights computed once when the block was entered. (the with's line, the loop's)"""
    for line in ev.failure.stack_lines if ev.failure else ():
        for at, text in ev.code.headers(line):
            loops = [l for l in ev.code.loops_at(line) if l.line > at]
            if _CACHED.match(text) and loops:
                return at, loops[0].line
    return None


def forward_chain(ev: Evidence, line: int, loop_line: int) -> tuple[int, ...]:
    """The statements before the loop that build the loss at `line` from what is trained
    (makemore's `logits = xenc @ W; counts = logits.exp(); prob = ...; loss = ...`): each must
    run again in the loop. What does not read a trained tensor (`xenc = one_hot(xs)`) stays."""
    trained = optimized(ev, read_grads=True)
    function = ev.code.function_at(line)
    before = sorted((a for a in ev.code.assigns if a.line < loop_line and ev.code.function_at(a.line) is function
                     and not ev.code.loops_at(a.line) and not a.detached and not a.no_grad), key=lambda a: a.line)
    if not trained:
        return (line,)
    carrying: set[str] = set()
    lines = set()
    for a in before:
        if any(r.split(".")[0] in trained or r in trained or r.split(".")[0] in carrying for r in a.reads):
            carrying |= set(a.targets)
            lines.add(a.line)
    made = next((a for a in before if a.line == line), None)
    if made is None:
        return (line,)
    chain, needed = [line], set(made.reads)
    for a in reversed([a for a in before if a.line < line]):
        if a.line in lines and set(a.targets) & needed:
            chain.append(a.line)
            needed |= a.reads
    return tuple(sorted(chain))


def given_to_constructor(ev: Evidence, line: int) -> tuple[str, int] | None:
    """`self.pe = position_embedding` in a class's `__init__`: (the argument, the line that made
    it) where the one call of the class passes it (`Classifier(blocks, position_embedding)`
    after `position_embedding = nn.Embedding(...)(positions)`)."""
    a = next((a for a in ev.code.assigns if a.line == line), None)
    f = ev.code.function_at(line)
    if a is None or f is None or f.name != "__init__" or a.call or len(a.reads) != 1 or not 0 < f.line <= len(ev.code.lines):
        return None
    (param,) = a.reads
    header = next((m for text in reversed(ev.code.lines[:f.line - 1]) for m in [re.match(r"class\s+(\w+)", text)] if m), None)
    if param not in f.params[1:] or header is None:
        return None
    cls = header.group(1)
    calls = [c for c in ev.code.calls if c.func == cls or c.func.endswith("." + cls)]
    if len(calls) != 1:
        return None
    index = f.params.index(param) - 1
    arg = dict(calls[0].keywords).get(param) or (calls[0].args[index] if index < len(calls[0].args) else None)
    made = [b for b in ev.code.assigns_to(arg) if b.line < calls[0].line] if arg and arg.isidentifier() else []
    last = max(made, key=lambda b: b.line) if made else None
    if last is None or last.detached or last.no_grad or ev.code.function_at(last.line) is not ev.code.function_at(calls[0].line):
        return None
    return arg, last.line


def made_on_the_spot(a) -> bool:
    """`nn.Embedding(n, d)(positions)`: the output of a module built right there (and never
    trained), like a derived parameter: computed once, not kept from a step."""
    return a.call is None and any("." in r and r.rpartition(".")[2][:1].isupper() for r in a.reads)


def one_update_of_several_losses(ev: Evidence, line: int) -> bool:
    """No optimizer step inside the loop, and an optimizer trains what made the tensor at
    `line`: the loop's backward calls are parts of one update through a shared subgraph."""
    made = next((a for a in ev.code.assigns if a.line == line), None)
    return made is not None and not ev.steps_in_loop and trained_by_optimizer(ev, made.reads) is True


def plans(hit: Hit, ev: Evidence) -> list:
    """Does an optimizer train what made the tensor? Then no_grad would freeze that path:
    compute it inside the loop, fresh each step. If not, the tensor is a fixed input: compute it
    once under no_grad. With no optimizer in the cell, move it in when this tensor is the only
    way its source is used in the loop."""
    from ...fixes.plan import plan
    from ._module_stores import from_own_parameter, makes_parameter

    if hit.variant == "cached":  # one step's worth of caching, as the context is meant
        return [plan("with_per_iteration", line=hit.line)]
    if hit.variant == "hessian":  # the one place where keeping the graph is the point
        return [plan("add_retain_graph", title="retain_for_products", line=int(hit.fact("backward_line")))]
    name, loop_line = hit.fact("name"), int(hit.fact("loop_line"))
    chain = tuple(int(l) for l in (hit.fact("chain") or "").split(",") if l)
    if hit.variant == "sibling":  # built again where the failing loop first reads it, if it is trained
        return with_detach(sibling_plans(ev, chain, loop_line))
    made = next((a for a in ev.code.assigns if a.line == (chain[-1] if chain else hit.line) and name in a.targets), None)
    root = (made.call or "").split(".")[0] if made else ""
    loop = next((l for l in ev.code.loops if l.line == loop_line), None)
    only_here = bool(root) and root not in {"torch", "F", "nn"} and loop is not None and \
        not any(loop.contains(r) for r in ev.code.read_lines(root))
    trained = trained_by_optimizer(ev, global_reads(ev, made) if made else None, read_grads=True)
    built = forward_chain(ev, hit.line, loop_line) if not trained and not chain and made is not None else ()
    if len(built) > 1 and ev.code.function_at(hit.line) is ev.code.function_at(loop_line):
        trained, chain = True, built  # built from what is trained a few statements up (`_, h = enc(src)`, `h0 = h[0]`): all move
    only_here = only_here if trained is None else trained
    plans = [plan("wrap_no_grad", line=hit.line), plan("move_into_loop", line=hit.line, loop_line=loop_line)]
    if made is not None and makes_parameter(made):  # a derived parameter: keep the parameter, derive it per call
        return [plan("parameter_in_forward", facts={"name": name}, line=hit.line), *plans[1:]]
    if made is not None and from_own_parameter(ev, made) and \
            getattr(ev.code.function_at(made.line), "name", "") == "__init__":  # derived on each read; no_grad would freeze the parameter
        return [plan("derive_on_read", facts={"name": name}, line=hit.line)]  # (refused: no fix beats a wrong one)
    a_loss = "loss" in name.rpartition(".")[2].lower() and ev.code.function_at(hit.line) is ev.code.function_at(loop_line)
    if hit.variant == "loss" or a_loss:  # a loss under no_grad could not be backpropagated at all
        # (MAML's batched inner losses, each differentiated in the task loop just below)
        made_line = chain[-1] if chain else hit.line
        single = plan("move_into_loop", title="recompute_in_loop", line=made_line, loop_line=loop_line)
        if len(chain) > 1:  # the whole forward that builds it, in order
            return [plan("move_into_loop", title="recompute_in_loop", lines=chain, loop_line=loop_line), single]
        return [single]
    if trained:  # no_grad would freeze parameters the optimizer is meant to train
        plans = [plan("move_into_loop", lines=chain, loop_line=loop_line)] if len(chain) > 1 else plans[1:]
        read = stale_read_by_second(ev)
        if read:  # the failing loss's update trains nothing behind it (a critic's steps): it reads it detached
            plans.append(plan("detach_shared", title="detach_where_read", name=read[0], facts={"name": read[0]},
                              lines=read[1]))
    closure = _backpropagating_function(ev, hit.line, loop)
    if closure is not None and trained is not False:
        return [plan("move_into_loop", title="recompute_in_closure", line=hit.line, loop_line=closure.line), *plans]
    return with_detach(plans[::-1] if only_here else plans)


def with_detach(plans: list) -> list:
    """A detach of the same value after each no_grad wrap: the one that applies where the
    statement only names a tensor made elsewhere (`target = acts['conv1']`), which no_grad would not cut."""
    from ...fixes.plan import plan

    return [q for p in plans for q in ((p, plan("add_detach", line=dict(p.where)["line"])) if p.kind == "wrap_no_grad" else (p,))]


def _backpropagating_function(ev: Evidence, line: int, loop):
    """A function defined after `line`, in the same scope, that runs a backward and that the
    loop calls or hands over (`optimizer.step(closure)`: LBFGS calls it several times a step)."""
    if loop is None:
        return None
    scope = ev.code.function_at(line)
    for f in ev.code.functions:
        if f.line > line and ev.code.function_at(f.line) is scope and f.end_line < loop.line \
                and any(f.line < b.line <= f.end_line for b in ev.code.backwards) \
                and any(loop.contains(c.line) and (c.func == f.name or f.name in c.arg_names) for c in ev.code.calls):
            return f
    return None

