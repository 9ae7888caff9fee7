"""Follow the backpropagated tensor back through the cell's assignments to where its graph
was cut: a no_grad block, a detaching call, a rebuilt tensor, or a helper whose result is
computed under no_grad. Only a cut of a value that carried a graph counts: `.numpy()` on
input data cuts nothing the loss needed."""
from __future__ import annotations

import builtins
from dataclasses import dataclass

from ...evidence import Evidence
from ...evidence.errors import ErrorFacts

_ORDER = ("numpy", "item", "tolist", "detach", "rebuild", "indices")
_LIBRARIES = ("torch", "np", "numpy", "F", "nn", "math", "random")


@dataclass(frozen=True)
class CutSite:
    line: int
    kind: str           # no_grad | no_grad_function | numpy | item | tolist | detach | rebuild | indices
    text: str
    edit_lines: tuple[int, ...] = ()  # lines a keep_in_graph fix must patch
    function: str = ""
    call_line: int = 0                # for no_grad_function: where the helper is called
    names: tuple[str, ...] = ()       # what holds the cut value on its way to the loss


def _no_grad_with(ev: Evidence, line: int) -> int | None:
    """The `with torch.no_grad():` line whose block holds `line` (by indentation)."""
    lines = ev.code.lines
    indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
    for i in range(line - 2, -1, -1):
        text = lines[i].strip()
        own = len(lines[i]) - len(lines[i].lstrip())
        if text and own < indent:
            if text.startswith("with ") and ("no_grad" in text or "inference_mode" in text):
                return i + 1
            indent = own
    return None


def _made_before(ev: Evidence, name: str, before: int):
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
            up = _made_before(ev, name, line)
            if up is not None:
                todo.append((up.line, up.reads))
    return False


def find_cut(ev: Evidence, facts: ErrorFacts) -> CutSite | None:
    site = ev.backward_site
    if site is None:
        return None
    # a bare call `get_loss()` calls a function, never a method of the same name
    functions = {f.name: f for f in ev.code.functions if f.params[:1] not in {("self",), ("cls",)}}
    todo = [(n, site.line, ()) for n in site.names]
    seen, cuts, data = set(), [], []
    while todo:
        name, before, path = todo.pop()
        if (name, before) in seen or len(seen) > 200:
            continue
        seen.add((name, before))
        a = _made_before(ev, name, before)
        if a is None:
            continue
        element = _element_written(ev, name, a.line, before)  # `losses[k] += loss` after `losses = [...]`
        if element is not None:
            if element.no_grad and (w := _no_grad_with(ev, element.line)):
                cuts.append(CutSite(w, "no_grad", ev.code.line_text(w)))
                continue
            a = element
        here = path + ((a.line, name),)
        if a.no_grad and (w := _no_grad_with(ev, a.line)):
            cuts.append(CutSite(w, "no_grad", ev.code.line_text(w)))
            continue
        kinds = {c.kind for c in facts.cuts if c.line == a.line}
        if (a.detached or kinds) and _carried_grad(ev, facts, a.line, a.reads):
            kind = next((k for k in _ORDER if k in kinds), "detach")
            cuts.append(CutSite(a.line, kind, ev.code.line_text(a.line), tuple(l for l, _ in here),
                                names=tuple(n for _, n in here)))
        elif "numpy" in kinds:
            data.append(a.line)  # numpy data that meets the cut value: it must stay a tensor too
        for fn_name in {c.func for c in ev.code.calls if c.line == a.line and c.func in functions}:
            deco = dict(facts.decorated_no_grad).get(fn_name)
            returns = [(line, names) for fn, line, names in facts.returns if fn == fn_name]
            inner = [w for line, _ in returns if (w := _no_grad_with(ev, line))]
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
                    continue
                todo += [(n, line, here) for n in names]
        todo += [(n, a.line, here) for n in a.reads]
    if not cuts:
        return None
    first = min(cuts, key=lambda c: c.line)  # where the history was lost first
    graph_cuts = [c for c in cuts if c.edit_lines]
    edits = tuple(sorted({l for c in graph_cuts for l in c.edit_lines} | (set(data) if graph_cuts else set())))
    names = tuple(sorted({n for c in graph_cuts for n in c.names}))
    return CutSite(first.line, first.kind, first.text, edits, first.function, first.call_line, names)
