"""backward() was called on a tensor with no grad_fn: somewhere the graph was cut, or nothing
in the computation ever required grad."""
from __future__ import annotations

import re

from ...evidence import Evidence
from ...evidence.errors import read_errors
from ...fixes.plan import plan
from ..base import Hit
from ..second_backward._trained import optimized
from ._no_grad_trace import CutSite, find_cut, made_before, no_grad_with
from .no_grad_fn_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "no_grad_fn"
SYMPTOM = "no_grad_fn"


def _facts(ev: Evidence, line: int, cut: str = "", **more) -> tuple[tuple[str, str], ...]:
    site = ev.backward_site
    base = {"name": site.receiver if site else "?", "line": str(line), "backward_line": str(ev.line),
            "cut": cut, **more}
    return tuple(base.items())


def _grad_turned_off(ev: Evidence) -> int | None:
    """The runtime found gradient tracking off for the whole session: the last statement that
    turned it off (`torch.set_grad_enabled(False)` in a set-up cell), not a with block."""
    if ev.failure is None or not ev.failure.grad_mode_off:
        return None
    calls = [c.line for c in ev.code.calls if c.func.endswith("set_grad_enabled")
             and ev.code.line_text(c.line).split("#")[0].replace(" ", "").endswith("set_grad_enabled(False)")]
    return max(calls) if calls else None


def _called_under_no_grad(ev: Evidence, facts) -> int | None:
    """The backward ran inside a call made from a function decorated no_grad (an optimizer's
    `step(closure)`) or from a no_grad block: the frame that made that call, as the runtime
    stack shows it."""
    stack = ev.failure.stack_lines if ev.failure else ()
    decorated = {name for name, _ in facts.decorated_no_grad}
    for line in reversed(stack[:-1]):
        f = ev.code.function_at(line)
        if f is not None and f.name in decorated or no_grad_with(ev, line) is not None:
            return line
    return None


def _hook_detaches(ev: Evidence) -> CutSite | None:
    """A forward hook the runtime found registered on the model that stores a detached copy of
    what it sees (`self.outputs.append(out.detach())`, `self.activations = out.detach()`),
    read back elsewhere: a loss built from those activations has no graph."""
    lines = {l for f, l in (ev.failure.hook_code if ev.failure else ()) if f == ev.capture.filename}
    for f in (f for f in ev.code.functions if f.line in lines):
        inside = lambda line: f.line < line <= f.end_line  # noqa: E731
        cut_at = _detached_locals(ev, inside)
        origins = lambda fact: (fact.line,) if fact.detached else tuple(sorted({cut_at[n] for n in fact.reads if n in cut_at}))  # noqa: E731
        kept = [(origins(s), s.container) for s in ev.code.stores if inside(s.line)]
        kept += [(origins(a), t) for a in ev.code.assigns if inside(a.line) for t in a.targets if t.startswith("self.")]
        for lines, name in kept:
            attr = name.rpartition(".")[2].split("[")[0]
            if lines and any(n.endswith("." + attr) and not f.line <= r <= f.end_line for n, r in ev.code.reads):
                return CutSite(lines[-1], "detach", ev.code.line_text(lines[-1]), lines)  # the detach nearest the store
    return None


def _detached_locals(ev: Evidence, inside) -> dict[str, int]:
    """Local names of a hook holding a detached copy (`feat = out.clone().detach()`, then
    `feat = feat.flatten(1)`), each with the line that detached it: the store that keeps one
    is cut there."""
    cut_at: dict[str, int] = {}
    for a in sorted((a for a in ev.code.assigns if inside(a.line)), key=lambda a: a.line):
        origin = a.line if a.detached else next((cut_at[n] for n in a.reads if n in cut_at), None)
        for t in a.targets:
            if origin is None or t.startswith("self."):
                cut_at.pop(t, None)
            else:
                cut_at[t] = origin
    return cut_at


def _helper_in_module(ev: Evidence, cut: CutSite) -> bool:
    """The no_grad helper lives in a user module the notebook imports, not in its cells."""
    if not ev.joined:
        return False
    piece = ev.program.piece_at(cut.line)
    return piece is not None and piece.source.file is not None and piece is not ev.program.piece_at(cut.call_line)


def _made_in_update_block(ev: Evidence, with_line: int) -> int | None:
    """`with torch.no_grad(): abc -= abc.grad * lr; loss = quad_mae(abc)`: the backpropagated
    name is assigned inside a no_grad block that also updates tensors in place (a manual SGD
    step). The line that assigns it, else None."""
    site = ev.backward_site
    if site is None or ev.line is None:
        return None
    updates = [op.line for op in read_errors(ev.capture.source).inplace if no_grad_with(ev, op.line) == with_line]
    for name in (n for n in sorted(site.names) if "." not in n):
        made = [a.line for a in ev.code.assigns_to(name) if a.line < ev.line and no_grad_with(ev, a.line) == with_line]
        if made and any(u < max(made) for u in updates):
            return max(made)
    return None


def _no_grad_forward(ev: Evidence, facts) -> int | None:
    """The `@torch.no_grad()` over a module's forward the runtime found in the model, when the
    program trains a tensor of its own through it (an input being optimised): nothing the
    module returns carries a graph back to it."""
    if not any(given for _, _, given in facts.leaves) or ev.failure is None:
        return None
    lines = [l for f, l in ev.failure.no_grad_forwards if f == ev.capture.filename]
    return next((l for l in lines if ev.code.line_text(l).startswith("@")), None)


def _cache_filled_without_graph(ev: Evidence) -> tuple[str, int] | None:
    """A module attribute the runtime found holding tensors without grad, which one of the
    module's methods fills from what it computes (not its constructor), in a program that
    runs the model under no_grad somewhere: the cache was filled there and read back now.
    (the attribute, the line that stores it)"""
    if not any(t.lstrip().startswith("with ") and ("no_grad" in t or "inference_mode" in t) for t in ev.code.lines):
        return None
    for path in ev.failure.gradless_caches if ev.failure else ():
        attr = path.rpartition(".")[2]
        stores = [l for l in ev.code.attribute_writes("self." + attr) if ev.code.function_at(l).name != "__init__"]
        if stores:
            return attr, max(stores)
    return None


def _inference_tensor(ev: Evidence) -> tuple[int, str] | None:
    """`Inference tensors cannot be saved for backward`: the failing statement reads a tensor made
    inside `with torch.inference_mode():` (features in a set-up cell). (that with line, the name)"""
    if ev.failure is None or "Inference tensors" not in ev.failure.message:
        return None
    decorators = dict(read_errors(ev.capture.source).decorated_no_grad)
    for name in sorted({n for n, line in ev.code.reads if line == ev.line}):
        made = made_before(ev, name, ev.line)
        w = no_grad_with(ev, made.line) if made is not None else None
        w = w or (decorators.get((made.call or "").rpartition(".")[2]) if made is not None else None)  # `@inference_mode()` on its helper
        if w is not None and "inference_mode" in ev.code.line_text(w):
            return w, name
    return None


def match(ev: Evidence) -> Hit | None:
    if ev.line is None:
        return None
    inference = _inference_tensor(ev)
    if inference is not None:
        line, name = inference
        return Hit(CAUSE, line, 0.9, variant="inference", facts=_facts(ev, line, ev.code.line_text(line), names=name),
                   related=(("backward", ev.line),))
    off = _grad_turned_off(ev)
    if off is not None:
        return Hit(CAUSE, off, 0.9, variant="grad_off", facts=_facts(ev, off, ev.code.line_text(off)),
                   related=(("backward", ev.line),))
    facts = read_errors(ev.capture.source)
    caller = _called_under_no_grad(ev, facts)
    block = no_grad_with(ev, caller) if caller is not None else None
    if block is not None:  # the whole run was launched inside a no_grad block (`with torch.no_grad(): main(opt)`)
        return Hit(CAUSE, block, 0.9, variant="called_in_no_grad_block",
                   facts=_facts(ev, block, ev.code.line_text(block), call_line=str(caller), call=ev.code.line_text(caller)),
                   related=(("backward", ev.line), ("call", caller)))
    if caller is not None:
        return Hit(CAUSE, caller, 0.9, variant="called_under_no_grad", facts=_facts(ev, caller, ev.code.line_text(caller)),
                   related=(("backward", ev.line),))
    if facts.freezes and ev.failure.frozen_optimizers:  # nothing the optimizer holds can train: the freeze is the cause
        return _frozen(ev, facts)
    cut = _hook_detaches(ev) or find_cut(ev, facts)
    made = _made_in_update_block(ev, cut.line) if cut is not None and cut.kind == "no_grad" else None
    if made is not None:  # the update belongs under no_grad, the loss computed beside it does not
        return Hit(CAUSE, made, 0.9, variant="made_in_update_block",
                   facts=_facts(ev, made, cut.text, with_line=str(cut.line)), related=(("backward", ev.line), ("no_grad", cut.line)))
    if cut is not None:
        line = cut.line
        if cut.kind == "no_grad_function" and _helper_in_module(ev, cut):
            line = cut.call_line  # a user module's inference helper (`model.encode`): the call is what to change
        return Hit(CAUSE, line, 0.9, variant=cut.kind,
                   facts=_facts(ev, line, cut.text, function=cut.function, call_line=str(cut.call_line), no_grad_line=str(cut.line),
                                edits=",".join(map(str, cut.edit_lines)), names=",".join(cut.names)),
                   related=(("backward", ev.line),))
    decorated = _no_grad_forward(ev, facts)
    if decorated is not None:
        return Hit(CAUSE, decorated, 0.85, variant="no_grad", facts=_facts(ev, decorated, ev.code.line_text(decorated)),
                   related=(("backward", ev.line),))
    cache = _cache_filled_without_graph(ev)
    if cache is not None:
        attr, line = cache
        return Hit(CAUSE, line, 0.85, variant="cache", facts=_facts(ev, line, ev.code.line_text(line), attr=attr),
                   related=(("backward", ev.line),))
    if facts.freezes:
        return _frozen(ev, facts)
    wanted = [(line, name) for line, name, given in facts.leaves if not given and name in facts.grad_reads]
    if wanted:
        line, name = wanted[0]
        return Hit(CAUSE, line, 0.8, variant="requires_grad_missing", facts=_facts(ev, line, leaf=name))
    outside = _made_outside_autograd(ev, facts)
    if outside is not None:
        line, library = outside
        return Hit(CAUSE, line, 0.6, variant="outside_autograd", facts=_facts(ev, line, ev.code.line_text(line), library=library),
                   related=(("backward", ev.line),))
    return Hit(CAUSE, ev.line, 0.4, variant="unknown", facts=_facts(ev, ev.line))


def _frozen(ev: Evidence, facts) -> Hit:
    """The freeze of what the optimizer trains (`for p in head.parameters():` when `head` is
    handed to it), not an intended one of a feature extractor made beside it."""
    trained = optimized(ev) or set()
    covering = [line for line, what in facts.freezes if any(
        re.search(rf"\b{re.escape(t)}\b", text) for t in trained
        for text in (what, ev.code.line_text(line), *(ev.code.line_text(l.line) for l in ev.code.loops_at(line))))]
    line = facts.twin_freezes[0] if facts.twin_freezes else (covering or [facts.freezes[0][0]])[0]
    return Hit(CAUSE, line, 0.8, variant="frozen", facts=_facts(ev, line, ev.code.line_text(line)))


_AUTOGRAD_MODULES = frozenset({"torch", "F", "nn", "self", "np", "numpy", "math"})


def _made_outside_autograd(ev: Evidence, facts) -> tuple[int, str] | None:
    """The backpropagated tensor is the result of a library's call (`torchmetrics.AveragePrecision
    (...)(x, y)`) given a tensor that requires grad: the library computed it without a graph (a
    metric, rank-based and not differentiable). (the line, the library)"""
    site = ev.backward_site
    name = site.receiver.split(".")[0].split("[")[0] if site else ""
    made = made_before(ev, name, ev.line) if name.isidentifier() else None
    if made is None or made.detached or made.no_grad:
        return None
    given = {n for _, n, g in facts.leaves if g} | set(facts.grad_reads)
    defined = {f.name for f in ev.code.functions}
    libraries = [r.split(".")[0] for r in sorted(made.reads) if "." in r and r.split(".")[0] not in _AUTOGRAD_MODULES
                 and r.split(".")[0] not in defined and not ev.code.assigns_to(r.split(".")[0])]
    if libraries and {r.split(".")[0] for r in made.reads} & given:
        return made.line, libraries[0]
    return None


def plans(hit: Hit, ev: Evidence) -> list:
    line, plans = hit.line, []
    if hit.variant == "made_in_update_block":
        plans.append(plan("remove_no_grad", with_line=int(hit.fact("with_line")), from_line=line))
    elif hit.variant == "inference":  # the values stay without a graph, as plain tensors training may read
        plans.append(plan("no_grad_for_inference", with_line=line))
    elif hit.variant in ("no_grad", "grad_off"):
        plans.append(plan("remove_no_grad", with_line=line))
    elif hit.variant == "called_under_no_grad":
        plans.append(plan("wrap_enable_grad", line=line))
    elif hit.variant == "called_in_no_grad_block":  # training does not belong under no_grad at all
        plans.append(plan("remove_no_grad", with_line=line))
        plans.append(plan("wrap_enable_grad", line=int(hit.fact("call_line"))))
    elif hit.variant == "cache":
        plans.append(plan("clear_cache_on_train", line=line, attr=hit.fact("attr")))
    elif hit.variant == "frozen":
        plans.append(plan("unfreeze", line=line))
    elif hit.variant == "gradients":  # a penalty on gradients: they must be differentiable themselves
        plans.append(plan("add_create_graph", lines=tuple(int(x) for x in hit.fact("edits").split(",") if x)))
    elif hit.variant in ("requires_grad_missing", "constant"):  # a constant loss for an empty batch: still a leaf of the graph
        plans.append(plan("add_requires_grad", line=line))
    elif hit.variant == "no_grad_function":
        # at the call first: the helper keeps serving evaluation without a graph
        plans.append(plan("inline_helper", line=int(hit.fact("call_line")), function=hit.fact("function")))
        no_grad_line = int(hit.fact("no_grad_line"))
        if ev.code.line_text(no_grad_line).lstrip().startswith(("with ", "@")):  # a decorator: the helper trains too
            plans.append(plan("remove_no_grad", with_line=no_grad_line))
    elif hit.variant == "indices":  # argmax'ed predictions: the loss must read the scores
        edits = [int(x) for x in hit.fact("edits").split(",") if x]
        later = [l for l in edits if l > line]
        if later:
            plans.append(plan("loss_from_scores", cut_line=line, loss_line=min(later)))
    elif edits := tuple(int(x) for x in hit.fact("edits").split(",") if x):
        plans.append(plan("keep_in_graph", lines=edits, names=tuple(n for n in hit.fact("names").split(",") if n)))
    return list(plans)
