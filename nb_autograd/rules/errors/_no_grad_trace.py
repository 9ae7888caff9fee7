"""Follow the backpropagated tensor back through the cell's assignments to where its graph
was cut: a no_grad block, a detaching call, a rebuilt tensor, or a no_grad function."""
from __future__ import annotations

from dataclasses import dataclass

from ...evidence import Evidence
from ...evidence.errors import ErrorFacts

_ORDER = ("numpy", "item", "tolist", "detach", "rebuild")
_REBUILD = ("tensor", "from_numpy", "as_tensor", "Tensor", "FloatTensor")


@dataclass(frozen=True)
class CutSite:
    line: int
    kind: str           # no_grad | no_grad_function | numpy | item | tolist | detach | rebuild
    text: str
    edit_lines: tuple[int, ...] = ()  # lines a keep_in_graph fix must patch
    function: str = ""


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


def find_cut(ev: Evidence, facts: ErrorFacts) -> CutSite | None:
    site = ev.backward_site
    if site is None:
        return None
    functions = {f.name: f for f in ev.code.functions}
    todo, seen, cuts = [(n, site.line) for n in site.names], set(), []
    while todo:
        name, before = todo.pop()
        if (name, before) in seen or len(seen) > 200:
            continue
        seen.add((name, before))
        made = [a for a in ev.code.assigns_to(name) if a.line < before] or list(ev.code.assigns_to(name))
        if not made:
            continue
        a = max(made, key=lambda a: a.line)
        if a.no_grad and (w := _no_grad_with(ev, a.line)):
            cuts.append(CutSite(w, "no_grad", ev.code.line_text(w)))
            continue
        kinds = {c.kind for c in facts.cuts if c.line == a.line}
        callee = (a.call or "").rpartition(".")[2]
        if callee in _REBUILD and a.call_args and (a.call or "").startswith(("torch", "np", "numpy")):
            kinds.add("rebuild")
        if a.detached or kinds:
            kind = next((k for k in _ORDER if k in kinds), "detach")
            cuts.append(CutSite(a.line, kind, ev.code.line_text(a.line), (a.line,)))
        called = {c.func for c in ev.code.calls if c.line == a.line and c.func in functions}
        for fn_name in called:
            deco = dict(facts.decorated_no_grad).get(fn_name)
            if deco:
                cuts.append(CutSite(deco, "no_grad_function", ev.code.line_text(deco), function=fn_name))
                continue
            todo += [(n, line) for fn, line, names in facts.returns if fn == fn_name for n in names]
        todo += [(n, a.line) for n in a.reads if n != name]
    if not cuts:
        return None
    first = min(cuts, key=lambda c: c.line)  # where the history was lost first
    edits = tuple(sorted({l for c in cuts for l in c.edit_lines}))
    return CutSite(first.line, first.kind, first.text, edits, first.function)
