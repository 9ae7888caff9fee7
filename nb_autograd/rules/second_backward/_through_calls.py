"""Each loss in its own function (`d_step(real, fake)`, then `g_step(fake)`), both handed the
same tensor by a caller that made it: the shared tensor is the first function's parameter."""
from __future__ import annotations

from ...evidence import Evidence
from ._detach_second import closure


def _bound(ev: Evidence, call, function, name: str) -> str | None:
    """The parameter of `function` that `call` passes `name` to (`self` skipped for methods)."""
    if name not in call.args:
        return None
    offset = 1 if call.receiver and function.params[:1] == ("self",) else 0
    index = call.args.index(name) + offset
    return function.params[index] if index < len(function.params) else None


def shared_through_calls(ev: Evidence, first: int, line: int) -> tuple[str, set[int]] | None:
    """Each loss in its own function (d_step(real, fake); g_step(fake)), both fed the same
    tensor by a caller that made it: (the first function's parameter, its loss lines)."""
    f1, f2 = ev.code.function_at(first), ev.code.function_at(line)
    site = ev.backward_site
    if f1 is None or f2 is None or f1 == f2 or site is None:
        return None
    first_site = next((b for b in ev.code.backwards if b.line == first), None)
    calls = lambda f: [c for c in ev.code.calls if c.func == f.name or c.func.endswith("." + f.name)]
    for c1 in calls(f1):
        for c2 in calls(f2):
            if ev.code.function_at(c1.line) != ev.code.function_at(c2.line) or c2.line < c1.line:
                continue
            for name in (n for n in c1.args if n and n in c2.args):
                made = [a for a in ev.code.assigns_to(name) if a.line <= c1.line and a.call and not a.detached]
                p1, p2 = _bound(ev, c1, f1, name), _bound(ev, c2, f2, name)
                if not made or first_site is None:
                    continue
                mine = closure(ev, set(first_site.names), f1.line, first - 1) | {first}
                uses = first_site.names | {n for a in ev.code.assigns if a.line in mine for n in a.reads}
                theirs = site.names | {n for a in ev.code.assigns if a.line in closure(ev, set(site.names), f2.line, line)
                                       for n in a.reads}
                if p1 in uses and p2 in theirs:
                    return p1, mine
    return None
