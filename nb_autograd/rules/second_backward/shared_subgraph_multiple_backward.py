"""Two losses share part of a graph and each gets its own backward (the GAN step without detach)."""
from __future__ import annotations

from ...evidence import Evidence
from ..base import Example, Hit

CAUSE = "shared_subgraph_multiple_backward"
SYMPTOM = "second_backward"

BAD = (
    Example(code="""\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
m = y.sum()
n = (y * 3).sum()
m.backward()
n.backward()
""", line=7, fixed="""\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
m = y.sum()
n = (y * 3).sum()
(m + n).backward()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
G = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
D = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
opt_g = torch.optim.SGD(G.parameters(), lr=0.01)
opt_d = torch.optim.SGD(D.parameters(), lr=0.01)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(3):
    real = torch.randn(8, 2) + 2
    fake = G(torch.randn(8, 2))
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(D(fake), torch.zeros(8, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(8, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
""", line=17, fixed="""\
import torch
torch.manual_seed(0)
G = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
D = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
opt_g = torch.optim.SGD(G.parameters(), lr=0.01)
opt_d = torch.optim.SGD(D.parameters(), lr=0.01)
bce = torch.nn.BCEWithLogitsLoss()
for step in range(3):
    real = torch.randn(8, 2) + 2
    fake = G(torch.randn(8, 2))
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(D(fake.detach()), torch.zeros(8, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(8, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
"""),
)

GOOD = (
    Example(code="""\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
m = (x ** 2).sum()
n = (x ** 3).sum()
m.backward()
n.backward()
"""),
    Example(code="""\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
(y.sum() + (y * 3).sum()).backward()
"""),
)


def _depends_on(ev: Evidence, names: set[str], before: int, after: int) -> set[str]:
    """Close `names` over assignments made in (after, before]: what they were computed from."""
    names = set(names)
    for a in sorted(ev.code.assigns, key=lambda a: -a.line):
        if after < a.line <= before and set(a.targets) & names:
            names |= a.reads
    return names


def shared_tensor(ev: Evidence, first_line: int) -> tuple[str, int] | None:
    """A tensor made before the first backward's loss that both losses read: (name, line)."""
    first = next((b for b in ev.code.backwards if b.line == first_line), None)
    site = ev.backward_site
    if first is None or site is None:
        return None
    start = max((l.line for l in ev.code.loops_at(first_line)), default=0)
    used_first = _depends_on(ev, set(first.names), first_line, start)
    used_second = _depends_on(ev, set(site.names), site.line, first_line)
    for a in sorted(ev.code.assigns, key=lambda a: -a.line):
        if start <= a.line < first_line and a.call and not a.detached:
            for name in a.targets:
                if name in used_first and name in used_second and name not in first.names:
                    return name, a.line
    return None


def _part_of_before_loop_tensor(ev: Evidence) -> tuple[str, int] | None:
    """backward() on a piece (`y[0, i]`, `losses[k]`) of a tensor made once before the loop."""
    site, loop = ev.backward_site, ev.loop
    if site is None or loop is None or site.receiver in site.names:
        return None
    for name in sorted(site.names):
        assigns = ev.code.assigns_to(name)
        before = [a.line for a in assigns if a.line < loop.line and a.call]
        if before and not any(loop.contains(a.line) for a in assigns) and ev.reaches_stale(name):
            return name, max(before)
    return None


def match(ev: Evidence) -> Hit | None:
    site = ev.backward_site
    if site is None or ev.same_root_call or ev.freed_by_grad_only:
        return None
    part = _part_of_before_loop_tensor(ev)
    if part:
        return Hit(CAUSE, site.line, 0.87, facts=(("line", str(site.line)), ("first_line", str(site.line)),
                                                  ("name", site.receiver), ("shared", part[0]),
                                                  ("shared_line", str(part[1]))),
                   related=(("shared", part[1]),), variant="parts_in_loop")
    if ev.freed_in_same_pass:
        first_line, score = ev.freeing_calls[0].line, 0.8
    elif not ev.has_runtime_staleness:
        earlier = [b for b in ev.code.backwards if b.line < site.line and b.receiver != site.receiver
                   and ev.code.loops_at(b.line) == ev.code.loops_at(site.line)]
        if not earlier:
            return None
        first_line, score = earlier[-1].line, 0.5
    else:
        return None
    shared = shared_tensor(ev, first_line) if first_line else None
    facts = [("line", str(site.line)), ("first_line", str(first_line)), ("name", site.receiver)]
    if shared:
        facts += [("shared", shared[0]), ("shared_line", str(shared[1]))]
    return Hit(CAUSE, site.line, score, facts=tuple(facts),
               related=(("first_backward", first_line),) + ((("shared", shared[1]),) if shared else ()),
               variant="detach_shared" if shared else "sum_losses")


def _closure(ev: Evidence, names: set[str], after: int, upto: int) -> set[int]:
    """Lines in (after, upto] that compute `names`, followed back through what they read."""
    lines, names = set(), set(names)
    for a in sorted(ev.code.assigns, key=lambda a: -a.line):
        if after < a.line <= upto and set(a.targets) & names:
            lines.add(a.line)
            names |= a.reads
    return lines


def fixes(hit: Hit, ev: Evidence, lang: str):
    """GAN: detach the shared tensor only in the first loss. Otherwise one backward on the
    sum (same gradients). retain_graph last: both passes are meant here, but it costs memory."""
    from ...fixes.plan import build, plan

    first, line = int(hit.fact("first_line")), hit.line
    plans = []
    if hit.variant == "detach_shared":
        shared, shared_line = hit.fact("shared"), int(hit.fact("shared_line"))
        first_site = next((b for b in ev.code.backwards if b.line == first), None)
        site = ev.backward_site
        if first_site is not None and site is not None:
            mine = _closure(ev, set(first_site.names), shared_line, first - 1)
            theirs = _closure(ev, set(site.names), shared_line, line)
            if not mine & theirs:
                plans.append(plan("detach_shared", name=shared, lines=tuple(sorted(mine | {first})),
                                  facts={"name": shared}))
    plans += [plan("sum_losses", first_line=first, line=line), plan("add_retain_graph", line=first)]
    return build(ev.capture.source, lang, plans)
