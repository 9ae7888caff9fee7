"""Graphs of earlier iterations are kept alive (a running loss without .item(), outputs
appended to a list, retain_graph=True on a growing total), so memory grows every iteration."""
from __future__ import annotations

from ...capture.silent import GraphGrowth, KeptGraph
from ...evidence.errors import FACTORIES, read_errors
from ...evidence import Evidence, item_kind
from ..base import Hit
from .graph_kept_alive_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "graph_kept_alive"
SYMPTOM = "silent"



def _size(nbytes: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if nbytes < 1024 or unit == "GB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    return str(nbytes)


def _loop_stores(ev: Evidence, name: str) -> list[int]:
    """The lines where a loop puts values into `name` without detaching them."""
    return [s.line for s in ev.code.stores if s.container == name and not s.detached and ev.code.loops_at(s.line)]


def _holder_line(ev: Evidence, name: str, fallback: int | None, made: tuple[int, ...] = ()) -> tuple[int | None, str]:
    """Where the code puts the graph into `name`: an accumulation, an append, an assignment;
    of a module's or object's writes, one the runtime saw make the nodes kept (`made`) first."""
    loops = lambda line: bool(ev.code.loops_at(line))  # noqa: E731
    adds = [a.line for a in ev.code.assigns_to(name) if a.accumulates and not a.detached and loops(a.line)]
    if adds:
        return adds[-1], "accumulated"
    stores = _loop_stores(ev, name)
    if stores:
        return stores[-1], "stored"
    sets = [a.line for a in ev.code.assigns_to(name) if loops(a.line) and not a.detached]
    if not sets and "." in name:  # `flow.layers.3.running_mean`: kept by a module, written in its methods
        written = _module_writes(ev, name)
        written = [w for w in written if w in made] or written  # the branch that ran
        return (written[-1] if written else fallback), "statistic" if written else "variable"
    return (sets[-1] if sets else fallback), "variable"


def _made_for_the_total(ev: Evidence, line: int) -> tuple[str, int] | None:
    """`error = loss(pred, target)` then `total += error / n` in a loop no backward reads
    `error` from (an evaluation loop): the value itself keeps the graph between iterations, so
    it is cut where it is made, not only where it is added. (name, the line that makes it)"""
    add = next((a for a in ev.code.assigns if a.line == line), None)
    loops = ev.code.loops_at(line)
    if add is None or not loops:
        return None
    for name in sorted(add.reads - set(add.targets)):
        made = [a for a in ev.code.assigns_to(name) if loops[-1].contains(a.line) and a.line < line and not a.detached
                and a.call is not None]
        if made and not _feeds_a_backward(ev, name):
            return name, made[-1].line
    return None


def _returned_totals(ev: Evidence, name: str, made: tuple[int, ...] = ()) -> list[tuple[int, str]]:
    """`train_loss = self._train_epoch()`: the running totals the called function of the
    program grows in its loop and reads elsewhere (to return them), the totals of values no
    backward frees first (they keep whole graphs, not only their nodes). Where the runtime saw
    some of them make the kept nodes (`made`), only those (not a count of samples)."""
    calls = [a.call.rsplit(".", 1)[-1] for a in ev.code.assigns_to(name) if a.call and not a.detached]
    backpropagated = {n for b in ev.code.backwards for n in b.names}
    for f in (f for f in ev.code.functions if f.name in calls):
        adds = [a for a in ev.code.assigns if f.line < a.line <= f.end_line and a.accumulates and not a.detached
                and ev.code.loops_at(a.line) and len(ev.code.loops_at(a.line)) > len(ev.code.loops_at(f.line))
                and a.reads - set(a.targets) - {"self"}]  # not a counter (`self.step += 1`)
        grown = {(t, a.line) for a in adds for t in a.targets}
        kept = [a for a in adds if any(f.line < r <= f.end_line and (a.targets[0], r) not in grown
                                       for r in ev.code.read_lines(a.targets[0]))]
        kept = [a for a in kept if a.line in made] or kept
        kept.sort(key=lambda a: bool((a.reads - set(a.targets)) & backpropagated))
        if kept:
            return [(a.line, a.targets[0]) for a in kept]
    return []


def _module_writes(ev: Evidence, path: str) -> list[int]:
    """Lines of the module's methods that write the attribute `path` ends with."""
    attr = "self." + path.rsplit(".", 1)[1]
    made = {a.line for a in ev.code.assigns_to(attr) if (a.call or "").rpartition(".")[2] in FACTORIES}
    return [l for l in ev.code.attribute_writes(attr) if l not in made] or \
        [l for l in read_errors(ev.capture.source).filling(attr) if not ev.code.set_up_only(l)]


def _growth_name(ev: Evidence, growth: GraphGrowth) -> tuple[str, int | None, str]:
    line = growth.lines[-1] if growth.lines else None
    site = next((b for b in ev.code.backwards if b.line == line), None)
    names = sorted(site.names, key=len) if site else []
    for name in names:
        held, variant = _holder_line(ev, name, None)
        if held is not None and variant == "accumulated":
            return name, held, "retained"
    loop = ev.code.loops_at(line)[-1] if line and ev.code.loops_at(line) else None
    carried = [a for a in ev.code.assigns if loop and loop.contains(a.line) and not a.detached
               for n in a.targets if ev.code.carried_in(loop, n)]
    if carried:
        return carried[0].targets[0], carried[0].line, "retained"
    return (site.receiver if site else "?"), line, "retained"


def _read_later_in_block(ev: Evidence, name: str, line: int) -> bool:
    """`name` is read again after `line`, in the block that holds it (not in another branch)."""
    reads, indent = set(ev.code.read_lines(name)), ev.code.indent(line)
    function = ev.code.function_at(line)
    for later in range(line + 1, (function.end_line if function else len(ev.code.lines)) + 1):
        if ev.code.line_text(later) and ev.code.indent(later) < indent:
            return False
        if later in reads:
            return True
    return False


_GROWS = frozenset(("cat", "concat", "concatenate", "stack", "hstack", "vstack"))


def _grown_from_itself(ev: Evidence, path: str) -> int | None:
    """`s_hist = torch.cat([state.s_history, s_new])`, then `state.s_history = s_hist`: a
    history that each step extends with its own previous value. The line that stores it."""
    for a in ev.code.assigns_to(path):
        if a.detached:
            continue
        made = [a] + [b for name in a.reads for b in ev.code.assigns_to(name) if b.line < a.line]
        if any(path in b.reads and (b.call or "").rpartition(".")[2] in _GROWS for b in made):
            return a.line
    return None


def _carrier(ev: Evidence, kept: list[KeptGraph]) -> KeptGraph:
    """The holder that carries the graphs across iterations: a history grown from itself, of
    all the values holding (nearly) the whole chain; else, since a name the loop assigns afresh
    each step (`out = model(x)`) holds the history only through what it was made from, a
    module's attribute holding (nearly) the same graph."""
    first = kept[0]
    grown = [k for k in kept if 10 * k.nodes >= 9 * first.nodes and _grown_from_itself(ev, k.path)]
    if grown:
        return grown[0]
    if "." in first.path or "[" in first.path or not any(ev.code.loops_at(a.line) for a in ev.code.assigns_to(first.path)) \
            or any(a.accumulates for a in ev.code.assigns_to(first.path)):
        return first
    inside = [k for k in kept[1:] if "." in k.path and "[" not in k.path and 10 * k.nodes >= 9 * first.nodes]
    return inside[0] if inside else first


def _feeds_a_backward(ev: Evidence, name: str) -> bool:
    """The list is kept on purpose: a later loss made from it is backpropagated
    (`meta_loss = torch.stack(task_losses).mean(); meta_loss.backward()`), which frees it."""
    made = {name}
    for a in sorted(ev.code.assigns, key=lambda a: a.line):
        if a.reads & made:
            made |= set(a.targets)
    # `losses[-1].backward()` each step frees one entry; the entries before it stay kept
    return any(b.names & made and not (b.names == {name} and b.receiver.startswith(name + "["))
               for b in ev.code.backwards)


def _backward_after_its_loop(ev: Evidence, name: str) -> bool:
    """Filled in a loop that a later backward in the same function follows (MAML's task
    predictions beside its task losses): the graphs live until that backward, then go."""
    lines = [s.line for s in ev.code.stores if s.container == name] + [a.line for a in ev.code.assigns_to(name)]
    lines = [line for line in lines if ev.code.loops_at(line)]
    for line in lines:
        loops = ev.code.loops_at(line)
        loop = loops[-1]
        function = ev.code.function_at(line)
        end = function.end_line if function else len(ev.code.lines)
        if not any(loop.end_line < b.line <= end and not b.retain_graph for b in ev.code.backwards):
            return False
    return bool(lines)


def match(ev: Evidence) -> Hit | None:
    kept = [o for o in ev.capture.silent if isinstance(o, KeptGraph)]
    growth = [o for o in ev.capture.silent if isinstance(o, GraphGrowth)]
    kept = [k for k in kept if not _feeds_a_backward(ev, k.path) and not _backward_after_its_loop(ev, k.path)]
    if kept:
        k = _carrier(ev, kept)
        line, variant = _holder_line(ev, k.path, min(k.lines), k.lines)
        grown = _grown_from_itself(ev, k.path) if variant != "accumulated" else None
        if grown is not None:
            line, variant = grown, "stored"
        facts = (("name", k.path), ("nodes", str(k.nodes)), ("iterations", str(k.iterations)),
                 ("bytes", _size(k.live_bytes)))
        totals = _returned_totals(ev, k.path, tuple(l for o in kept for l in o.lines)) if variant == "variable" else []
        if totals:  # named by the total that holds the graphs, not the caller's copy
            line, variant = totals[0][0], "returned_total"
            facts = (("name", totals[0][1]),) + facts[1:] + (("lines", ",".join(str(l) for l, _ in sorted(totals))),)
        made = _made_for_the_total(ev, line) if variant == "accumulated" else None
        if made is not None:
            line, variant = made[1], "made_for_total"
            facts = (("name", made[0]),) + facts[1:] + (("total", k.path),)
        if variant == "statistic":
            lines = sorted({l for other in kept if "." in other.path for l in _module_writes(ev, other.path)})
            facts += (("lines", ",".join(map(str, lines))),)
        store = next((s for s in ev.code.stores if s.line == line and s.container == k.path), None)
        held = item_kind({k.container}, store) if variant == "stored" and store is not None else ""
        if held:  # each stored value a container (a dict of a step's results): its tensors detached
            facts += (("held", held),)
        others = [o.path for o in kept if o is not k and o.path.isidentifier() and o.container in ("list>tensor", "list")]
        if variant == "stored" and others:  # other lists the runtime found keeping graphs (`preds` beside `losses`)
            facts += (("others", ",".join(others)),)
    elif growth:
        g = growth[0]
        name, line, variant = _growth_name(ev, g)
        facts = (("name", name), ("nodes", f"{g.nodes[0]} -> {g.nodes[-1]}"), ("iterations", str(g.calls)),
                 ("bytes", f"{_size(g.live_bytes[0])} -> {_size(g.live_bytes[-1])}"),
                 ("backward_line", str(g.lines[-1])))
    else:
        return None
    return Hit(CAUSE, line, 0.8, facts=facts + (("line", str(line)),), variant=variant)


def plans(hit: Hit, ev: Evidence) -> list:
    """Keep the value, not the graph: a running total adds each loss detached; a list or a
    variable that outlives the step keeps a detached copy. A total that is itself
    backpropagated with retain_graph gets no automatic fix (which graph to keep is a choice)."""
    from ...fixes.plan import plan

    name = hit.fact("name")
    if hit.line is None or "." in name and "[" in name:
        return []
    if hit.variant == "accumulated":
        return [plan("detach_accumulated", line=hit.line, name=name, facts={"name": name})]
    if hit.variant == "returned_total":  # every total the called function returns, at once
        return [plan("detach_statistics", title="detach_accumulated", facts={"name": name},
                     lines=tuple(int(l) for l in hit.fact("lines").split(",")))]
    if hit.variant == "statistic":  # every statistic of the module kept this way, at once
        statistics = plan("detach_statistics", lines=tuple(int(l) for l in hit.fact("lines").split(",")))
        attr = "self." + name.rsplit(".", 1)[-1]
        if _read_later_in_block(ev, attr, hit.line) and hit.line in read_errors(ev.capture.source).filling(attr):
            # a buffer filled in place and handed on (`out = self.buf.clone()`): cut it loose once read
            return [plan("detach_after_use", facts={"name": attr}, line=hit.line, name=attr), statistics]
        return [statistics]
    used = [b for b in ev.code.backwards if b.line > hit.line and b.receiver.startswith(name + "[")]
    if hit.variant == "stored" and used:  # `losses[-1].backward(retain_graph=True)`: the entry is cut once used
        return [plan("detach_after_use", title="detach_entry_after_use", facts={"name": used[0].receiver},
                     line=used[0].line, name=used[0].receiver)]
    loop = ev.code.loops_at(hit.line)[-1:] if hit.variant == "stored" and not hit.fact("held", "") else ()
    kept = [name, *(n for n in hit.fact("others", "").split(",") if n)]
    stores = sorted((l, n) for n in kept for l in _loop_stores(ev, n) if loop and loop[0].contains(l))
    if len(stores) > 1:  # `history["loss"].append(loss)` beside `history["pred"].append(pred)`, or `preds` beside
        return [plan("detach_stores", title="add_detach", stores=tuple(stores))]  # `losses`: one graph, kept by each
    if hit.variant in ("stored", "variable", "made_for_total"):
        made = next((a for a in ev.code.assigns if a.line == hit.line and len(a.targets) == 1), None)
        if made is not None and name not in made.targets and "." in name:  # `value = old * d + new * (1 - d)`,
            name = made.targets[0]  # then stored under a name the code computes (`register_buffer(buffer_name, value)`)
        return [plan("add_detach", line=hit.line, names=(name,), held=hit.fact("held", ""))]
    return []

