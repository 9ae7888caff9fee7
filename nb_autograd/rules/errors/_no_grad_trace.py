"""Follow the backpropagated tensor back through the cell's assignments to where its graph
was cut: a no_grad block, a detaching call, a rebuilt tensor, or a helper whose result is
computed under no_grad. Only a cut of a value that carried a graph counts: `.numpy()` on
input data cuts nothing the loss needed."""
from __future__ import annotations

import builtins
from dataclasses import dataclass

from ...evidence import Evidence
from ...evidence.errors import FACTORIES, ErrorFacts

_ORDER = ("numpy", "item", "tolist", "detach", "rebuild", "indices")
_LIBRARIES = ("torch", "np", "numpy", "F", "nn", "math", "random")


def _settings_only(name: str) -> bool:
    """A name a constant's call may read: the library itself, a dtype, a device."""
    return name.split(".")[0] in _LIBRARIES or name in ("self", "device") or name.endswith(".device")


@dataclass(frozen=True)
class CutSite:
    line: int
    kind: str           # no_grad | no_grad_function | numpy | item | tolist | detach | rebuild | indices | constant | gradients
    text: str
    edit_lines: tuple[int, ...] = ()  # lines a keep_in_graph fix must patch
    function: str = ""
    call_line: int = 0                # for no_grad_function: where the helper is called
    names: tuple[str, ...] = ()       # what holds the cut value on its way to the loss


def no_grad_with(ev: Evidence, line: int) -> int | None:
    """The `with torch.no_grad():` line whose block holds `line` (by indentation)."""
    return next((at for at, text in ev.code.headers(line)
                 if text.startswith("with ") and ("no_grad" in text or "inference_mode" in text)), None)


def made_before(ev: Evidence, name: str, before: int):
    made = [a for a in ev.code.assigns_to(name) if a.line < before] or list(ev.code.assigns_to(name))
    return max(made, key=lambda a: a.line) if made else None


def _element_written(ev: Evidence, name: str, after: int, before: int):
    """The last write into an element of `name` (`name[i] = ...`, `name[i] += ...`) between its
    assignment and `before`: what the element read later holds."""
    writes = [a for a in ev.code.assigns if after < a.line < before and any(t.startswith(name + "[") for t in a.targets)]
    return max(writes, key=lambda a: a.line) if writes else None


def _grad_source_at(ev: Evidence, facts: ErrorFacts, line: int, reads) -> bool:
    """Does the code at `line` call a model or a cell function, or read a trained tensor?"""
    trained = facts.grad_reads | {name for _, name, given in facts.leaves if given}
    if set(reads) & trained:
        return True
    for call in ev.code.calls:
        root = call.func.split(".")[0]
        if call.line == line and root and root not in _LIBRARIES and not hasattr(builtins, root) \
                and (call.receiver in (None, "self") or call.func.startswith("self.")):
            return True
    return False


def _carried_grad(ev: Evidence, facts: ErrorFacts, line: int, reads) -> bool:
    """Whether the value cut at `line` (reading `reads`) came from a graph (walks upstream)."""
    todo, seen = [(line, reads)], set()
    while todo and len(seen) < 200:
        line, reads = todo.pop()
        if line in seen:
            continue
        seen.add(line)
        if _grad_source_at(ev, facts, line, reads):
            return True
        for name in reads:
            up = made_before(ev, name, line)
            if up is not None:
                todo.append((up.line, up.reads))
    return False


def _constant_branch(ev: Evidence, facts: ErrorFacts, name: str, chosen, before: int) -> int | None:
    """Another assignment of `name` in the same function, before `before`, that makes it a
    constant tensor (`loss = torch.tensor(0.)` in the branch for a batch with nothing to learn):
    when that branch runs, the loss has no graph at all."""
    function = ev.code.function_at(chosen.line)
    constants = {line for line, leaf, given in facts.leaves if leaf == name and not given}
    for b in ev.code.assigns_to(name):
        if b is not chosen and b.line < before and b.line in constants and ev.code.function_at(b.line) == function \
                and (b.call or "").rpartition(".")[2] in FACTORIES and all(_settings_only(r) for r in b.reads):
            return b.line
    return None


def gradients_without_graph(ev: Evidence, line: int) -> bool:
    """`autograd.grad(...)` at `line` without create_graph=True: the gradients it returns are
    plain tensors, so a penalty built from them (IGA, a gradient norm) has no graph."""
    if not any(b.kind == "grad" and b.line == line for b in ev.code.backwards):
        return False
    calls = [dict(c.keywords) for c in ev.code.calls if c.line == line and c.func.rpartition(".")[2] == "grad"]
    return bool(calls) and all(k.get("create_graph", "False") == "False" for k in calls)


def find_cut(ev: Evidence, facts: ErrorFacts) -> CutSite | None:
    site = ev.backward_site
    if site is None:
        return None
    # a bare call `get_loss()` calls a function, never a method of the same name
    functions = {f.name: f for f in ev.code.functions if f.params[:1] not in {("self",), ("cls",)}}
    methods = {}  # `model.forward_train(...)`: a method defined once in the program, followed by its name
    for f in ev.code.functions:
        if f.params[:1] == ("self",):
            methods[f.name] = None if f.name in methods else f
    todo = [(n, site.line, (), None) for n in site.names]
    seen, cuts, data = set(), [], []

    def no_grad_cut(w: int, via) -> CutSite:
        """A no_grad block; inside a function the trace entered through a call, that call
        computed its result without a graph (`emb = model.encode(x)`)."""
        if via is not None and (f := ev.code.function_at(w)) is not None and f.name == via[1]:
            return CutSite(w, "no_grad_function", ev.code.line_text(w), function=via[1], call_line=via[0])
        return CutSite(w, "no_grad", ev.code.line_text(w))

    while todo:
        name, before, path, via = todo.pop()
        if (name, before) in seen or len(seen) > 200:
            continue
        seen.add((name, before))
        a = made_before(ev, name, before)
        if a is None:
            continue
        element = _element_written(ev, name, a.line, before)  # `losses[k] += loss` after `losses = [...]`
        if element is not None:
            if element.no_grad and (w := no_grad_with(ev, element.line)):
                cuts.append(no_grad_cut(w, via))
                continue
            a = element
        here = path + ((a.line, name),)
        if a.no_grad and (w := no_grad_with(ev, a.line)):
            cuts.append(no_grad_cut(w, via))
            continue
        if gradients_without_graph(ev, a.line):
            cuts.append(CutSite(a.line, "gradients", ev.code.line_text(a.line), (a.line,)))
            continue
        for store in (s for s in ev.code.stores if s.container == name and a.line < s.line < before):
            if (w := no_grad_with(ev, store.line)) is not None:  # `all_embeddings.extend(emb)` under no_grad
                cuts.append(no_grad_cut(w, via))
            elif gradients_without_graph(ev, store.line):  # `grads.append(autograd.grad(env_loss, params))`
                cuts.append(CutSite(store.line, "gradients", ev.code.line_text(store.line), (store.line,)))
            else:
                todo += [(n, store.line, here, via) for n in store.reads]
        kinds = {c.kind for c in facts.cuts if c.line == a.line}
        if (a.detached or kinds) and _carried_grad(ev, facts, a.line, a.reads):
            kind = next((k for k in _ORDER if k in kinds), "detach")
            cuts.append(CutSite(a.line, kind, ev.code.line_text(a.line), tuple(l for l, _ in here),
                                names=tuple(n for _, n in here)))
        elif "numpy" in kinds:
            data.append(a.line)  # numpy data that meets the cut value: it must stay a tensor too
        constant = _constant_branch(ev, facts, name, a, before)
        if constant is not None:
            cuts.append(CutSite(constant, "constant", ev.code.line_text(constant)))
        called = {c.func for c in ev.code.calls if c.line == a.line and c.func in functions}
        called |= {c.func.rpartition(".")[2] for c in ev.code.calls if c.line == a.line and c.receiver
                   and methods.get(c.func.rpartition(".")[2]) is not None}
        for fn_name in called:
            deco = dict(facts.decorated_no_grad).get(fn_name)
            returns = [(line, names) for fn, line, names in facts.returns if fn == fn_name]
            inner = [w for line, _ in returns if (w := no_grad_with(ev, line))]
            if deco or inner:
                cut = deco or inner[0]
                cuts.append(CutSite(cut, "no_grad_function", ev.code.line_text(cut), function=fn_name,
                                    call_line=a.line))
                continue
            for line, names in returns:
                # a helper can cut in its return itself (`return torch.tensor(1 - d.item())`): its
                # value came from a graph when its names did, or when the call fed it one
                kinds = {c.kind for c in facts.cuts if c.line == line}
                if kinds and names and (_carried_grad(ev, facts, line, names) or _grad_source_at(ev, facts, a.line, a.reads)):
                    kind = next((k for k in _ORDER if k in kinds), "detach")
                    cuts.append(CutSite(line, kind, ev.code.line_text(line), tuple(l for l, _ in here) + (line,),
                                        names=tuple(n for _, n in here)))
                    if kind != "rebuild":  # `torch.tensor(err.mean())` may wrap values cut before it too
                        continue
                todo += [(n, line, here, (a.line, fn_name)) for n in names]
        todo += [(n, a.line, here, via) for n in a.reads]
    if not cuts:
        return None
    # a branch that makes the loss a constant explains a missing graph whole; else where the
    # history was lost first
    first = min(cuts, key=lambda c: (c.kind != "constant", c.line))
    if first.kind == "gradients":  # every autograd.grad() the penalty is built from gets create_graph
        return CutSite(first.line, first.kind, first.text, tuple(sorted({c.line for c in cuts if c.kind == "gradients"})))
    graph_cuts = [c for c in cuts if c.edit_lines and c.kind != "gradients"]
    edits = tuple(sorted({l for c in graph_cuts for l in c.edit_lines} | (set(data) if graph_cuts else set())))
    names = tuple(sorted({n for c in graph_cuts for n in c.names}))
    return CutSite(first.line, first.kind, first.text, edits, first.function, first.call_line, names)
