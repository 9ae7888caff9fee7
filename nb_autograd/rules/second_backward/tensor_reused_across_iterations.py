"""A graph-attached tensor from an earlier iteration (list, dict, attribute or plain
variable such as prev_output, an EMA or a memory bank) feeds this iteration's loss."""
from __future__ import annotations

import ast
import re

from ...evidence import Evidence, item_kind
from ...evidence.errors import FACTORIES, read_errors
from ..base import Hit
from ._module_stores import kept_by_module, module_cache, set_in_constructor
from ._optimizer_steps import depends_on
from .accumulated_loss_backward_in_loop import match as accumulated
from .recurrent_state_not_detached import recurrent_states
from .tensor_reused_across_iterations_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "tensor_reused_across_iterations"
SYMPTOM = "second_backward"


def _container_sources(ev: Evidence) -> list[tuple[str, int]]:
    loop_stores = [s for s in ev.code.stores if not s.detached and (
        ev.in_loop_scope(s.line, s.container) or ev.stale_holder(s.container))]  # a hook's list, seen at run time
    out = []
    for store in loop_stores:
        if ev.has_runtime_staleness and not ev.reaches_stale(store.container) or _made_afresh(ev, store) \
                or _tensor_by_that_name(ev, store):
            continue
        out.append((store.container, store.line))
    return out


def _tensor_by_that_name(ev: Evidence, store) -> bool:
    """`loss_G.append(...)` in a function whose list shares its name with another's loss tensor:
    the runtime saw only a tensor under that name, which no append fills."""
    held = [h.container == "tensor" for h in ev.holders_of(store.container)]
    return store.method in ("append", "extend", "insert", "appendleft") and bool(held) and all(held)


def _made_afresh(ev: Evidence, store) -> bool:
    """`losses = []` in the loop around the backward, above the store and not under an `if`:
    the container holds only this iteration's values (they reach an old graph through
    something else, a state the loop carries)."""
    loop = ev.loop
    if loop is None or not loop.contains(store.line) or "." in store.container:
        return False
    return any(loop.line < a.line < store.line and store.container not in a.reads and not a.accumulates
               and not ev.conditional(a.line, loop.line)
               for a in ev.code.assigns_to(store.container))


def _tables(ev: Evidence) -> tuple[str, ...]:
    """Plain tensors (not lists or dicts: the runtime saw a tensor) that the loop around the
    backward writes row by row (`table[ids, :] = out`) and that reach the freed graph."""
    loop = ev.loop
    written = [s.container for s in ev.code.stores if s.method == "setitem" and not s.detached and loop is not None
               and loop.contains(s.line)]
    cut = {ev.code.line_text(l) for l in range(loop.line, loop.end_line + 1)} if loop is not None else set()
    return tuple(dict.fromkeys(n for n in written if f"{n}.detach_()" not in cut and any(
        h.container == "tensor" and h.reaches_stale and h.path == n for h in ev.holders)))


def _made_where_stale(ev: Evidence) -> list[tuple[str, int]]:
    """What the code shape could not follow (a list handed from a client to a server to an
    attack): the line the runtime saw make every stale tensor the frames hold, when that line
    stores or assigns a value. (the container or name, that line)"""
    graph = ev.failure.graph if ev.failure else None
    nodes = [graph.node(h.node_id) for h in ev.holders if h.stale] if graph is not None else []
    lines = {n.line for n in nodes if n is not None}
    if len(lines) != 1 or None in lines or not nodes:
        return []
    line = lines.pop()
    store = next((s for s in ev.code.stores if s.line == line and not s.detached), None)
    made = next((a for a in ev.code.assigns if a.line == line and not a.detached and not a.no_grad), None)
    name = store.container if store else made.targets[0] if made and made.targets else None
    return [(name, line)] if name else []


def _carried_in_generator(ev: Evidence) -> list[tuple[str, int]]:
    """A generator's loop carries a state from one `yield` to the next (a rollout's `state =
    output`), and the runtime found that state, in the paused generator, holding the freed
    graph: the next step was computed from the last one's output. (name, where the loop
    rebinds it)"""
    out = []
    for base in dict.fromkeys(h.path.split("[")[0] for h in ev.holders if h.stale and "." not in h.path):
        for loop in ev.code.loops:
            f = ev.code.function_at(loop.line)
            if f is None or not ev.code.carried_in(loop, base) or \
                    not any(_YIELD.search(t) for t in ev.code.lines[f.line:f.end_line]):
                continue
            made = [a.line for a in ev.code.assigns_to(base) if loop.contains(a.line) and not a.detached]
            if made:
                out.append((base, max(made)))
    return out


_YIELD = re.compile(r"^\s*(\w+\s*=\s*)?yield\b")


def _restored_before_backward(ev: Evidence, name: str, line: int) -> bool:
    """The carried tensor was already replaced by this iteration's value before the backward
    ran (stored inside a forward/__call__, or above the backward), so what the name holds now
    is new; its being part of the failing graph is what there is to check."""
    in_def = any(a < line <= b and kind == "def" for a, b, kind in ev.scopes)
    return (in_def or (ev.line is not None and line < ev.line)) and ev.holder(name) is not None


def _carried_sources(ev: Evidence, skip: set[str]) -> list[tuple[str, int]]:
    out = []
    for a in ev.code.assigns:
        if a.detached or a.no_grad:
            continue
        for name in a.targets:
            if not ev.in_loop_scope(a.line, name) or name in skip or not ev.carried(name):
                continue
            if ev.has_runtime_staleness and not (ev.stale_holder(name) or ev.reaches_stale(name)
                                                 or _restored_before_backward(ev, name, a.line)):
                continue
            if not ev.has_runtime_staleness and not (a.reads - {name}):
                continue
            out.append((name, max(b.line for b in ev.code.assigns_to(name) if ev.in_loop_scope(b.line, name))))
    return out


def _fed_first(ev: Evidence, containers: list, carried) -> list:
    """Containers first, unless none of them feeds the failing loss and a carried name does:
    a log written each step (`loss_dict['d'] = d_loss`) holds a freed graph too, but the
    backward reached the old graph through what the loss was computed from (stylegan2's
    `mean_path_length`, handed back by the regulariser)."""
    if not containers:
        return carried()
    if ev.loop is None or ev.backward_site is None or ev.line is None:
        return containers
    lineage = depends_on(ev, set(ev.backward_site.names), ev.line, ev.loop.line - 1)
    if any(name.split("[")[0] in lineage for name, _ in containers):
        return containers
    return [c for c in carried() if c[0] in lineage] or containers


def _kept_from_elsewhere(ev: Evidence) -> bool:
    """A module keeps a tensor its own method computed (a learned statistic), and the backward
    that freed its graph ran outside the failing loop (fitting, then optimizing inputs): what
    one pass shares with itself is not the story here."""
    loop = ev.loop
    return loop is not None and bool(ev.freeing_calls) and bool(kept_by_module(ev)) and not any(
        loop.contains(line) for c in ev.freeing_calls for line in c.stack_lines)


def match(ev: Evidence) -> Hit | None:
    if ev.same_root_call or ev.freed_in_same_pass and not _kept_from_elsewhere(ev) or not ev.scopes or accumulated(ev):
        return None
    recurrent = {name for name, _, _ in recurrent_states(ev)}
    loop_vars = {n for l in ev.code.loops for a in ev.code.assigns if a.line == l.line for n in a.targets}
    kept = set_in_constructor(ev)  # seen stale on a module at run time: the strongest evidence here
    cached = [] if kept else [s for s in kept_by_module(ev) if s[0] not in recurrent]
    generator = [] if kept or cached else _carried_in_generator(ev)
    sources = kept or cached or generator or _fed_first(ev, _container_sources(ev), lambda: _carried_sources(ev, recurrent | loop_vars)) \
        or _made_where_stale(ev)
    if not sources:
        return None
    name, line = sources[0]
    store = next((s for s in ev.code.stores if s.container == name and s.line == line), None)
    kind = "generator" if generator else "container" if store else ("attribute" if "." in name else "variable")
    cache = module_cache(ev, name, store)
    if cache is not None:
        kind = "module_cache"
    if kind == "container" and store.method == "setitem" and _tables(ev):
        kind = "table"  # a tensor written row by row with each step's outputs
    elif kind == "container" and store.method == "setitem" and ev.code.function_at(line) is not None and \
            any(h.container in ("tensor", "") and "[" not in h.path and h.reaches_stale for h in ev.holders_of(name)):
        kind = "buffer_slice"  # a slice of a kept buffer written with each call's values (a KV cache)
    written = _written_in_place(ev, name, line) if kind == "attribute" else None
    if written is not None:  # a buffer made plain, then written in place each call with this step's values
        line, kind = written, "written_in_place"
    passed = _stored_argument(ev, store) if store is not None else None
    if passed is not None:  # the caller hands the method the graph-attached tensor it stores
        name, line, kind, store = *passed, "passed", None
    facts = (("name", name), ("line", str(line)), ("backward_line", str(ev.line))) + \
        ((("holder", cache),) if cache is not None and kind == "module_cache" else ())
    caches = sorted({s for s in sources if s[0].startswith("self.")}, key=lambda s: s[1])
    if len(caches) > 1 and name.startswith("self."):  # every cache of a module the runtime found stale
        facts += (("stores", ";".join(f"{l}:{n}" for n, l in caches)),)
    if store is not None and store.value:
        facts += (("value", store.value),)
    # a module's own cache is weaker than one set in its constructor: it may be computed once
    # before the loop (a GAN's `self.fake_B` made before the critic's steps)
    return Hit(CAUSE, line, 0.88 if kept else 0.85 if cached else 0.84 if ev.has_runtime_staleness else 0.55, facts=facts,
               related=(("backward", ev.line),), variant=kind)


def _written_in_place(ev: Evidence, name: str, line: int) -> int | None:
    """`self.buf = torch.empty(B)` (a plain buffer, made once) and, in the same method,
    `self.buf.scatter_add_(0, idx, energies)`: the graph enters the buffer through the in-place
    write, which chains onto the graph the last call left in it. That write's line."""
    made = next((a for a in ev.code.assigns if a.line == line and name in a.targets), None)
    if made is None or (made.call or "").rpartition(".")[2] not in FACTORIES:
        return None
    function = ev.code.function_at(line)
    writes = [l for l in read_errors(ev.capture.source).filling(name) if ev.code.function_at(l) is function]
    return max(writes) if writes else None


def _buffer_writes(ev: Evidence, hit: Hit) -> tuple[tuple[int, str], ...]:
    """(line, buffer) of the slice writes into the module's stale buffers in the hit's block
    (`cache_k`, then `cache_v`), in order: detaching one leaves the other failing."""
    stores = [(int(l), n) for l, n in (s.split(":") for s in hit.fact("stores").split(";"))] if hit.fact("stores") else []
    here = ev.code.function_at(hit.line)
    written = {(s.line, s.container) for s in ev.code.stores if s.method == "setitem" and ev.code.function_at(s.line) is here}
    return tuple(sorted({(hit.line, hit.fact("name"))} | {w for w in stores if w in written}))


def _stored_argument(ev: Evidence, store) -> tuple[str, int] | None:
    """A method stores one of its arguments in a tuple (`self.memory.append((state, log_prob,
    reward))`) and the runtime found that position of the stored tuples stale: the argument
    the one call of that method passes (`self.log_prob`), at that call."""
    positions = {int(m.group(1)) for h in ev.holders_of(store.container) if h.reaches_stale
                 for m in [re.search(r"\[\d+\]\[(\d+)\]$", h.path)] if m}
    function = ev.code.function_at(store.line)
    try:
        stored = ast.parse(store.value, mode="eval").body
    except SyntaxError:
        return None
    if len(positions) != 1 or function is None or not isinstance(stored, ast.Tuple):
        return None
    position = positions.pop()
    param = stored.elts[position].id if position < len(stored.elts) and isinstance(stored.elts[position], ast.Name) else None
    if param not in function.params:
        return None
    index = function.params.index(param) - (function.params[:1] == ("self",))
    calls = [c for c in ev.code.calls if c.func == function.name or c.func.endswith("." + function.name)]
    if len(calls) != 1 or not 0 <= index < len(calls[0].args) or calls[0].args[index] is None:
        return None
    return calls[0].args[index], calls[0].line


def _read_earlier_in_scope(ev: Evidence, name: str, line: int) -> bool:
    """Is `name` read before `line` in the loop or function body holding it? Then the loss
    there sees the old stored value, and cutting only the self-read at `line` is not enough."""
    starts = [l.line for l in ev.code.loops_at(line)] + [f.line for f in ev.code.functions if f.line < line <= f.end_line]
    start = max(starts, default=0)
    return any(start <= r < line for r in ev.code.read_lines(name))


def plans(hit: Hit, ev: Evidence) -> list:
    """A memoised value (`if k not in cache: cache[k] = f(k)`) made from trained parameters is
    stale after each step: compute it again; detaching it would cut the loss off from them.
    Otherwise store a detached copy. A value that feeds on itself (an EMA) is first cut where it
    reads its own past, which keeps this step's gradient, if nothing read the old value first.
    A list only appended to and read whole by the loss is this episode's buffer: it is emptied
    after the backward (detaching its entries would leave that loss without a gradient)."""
    from ...fixes.plan import plan
    from ...fixes.recompute_cached import recompute_cached
    from ._trained import trained_by_optimizer

    name, source = hit.fact("name"), ev.capture.source
    if hit.variant == "table":  # detached in place once each update is done: within a step the rows keep their gradients
        tables = _tables(ev)
        return [plan("detach_tables", facts={"names": ", ".join(tables)}, backward_line=int(hit.fact("backward_line")),
                     names=tables), plan("add_detach", line=hit.line, names=(name,))]
    if hit.variant == "buffer_slice":  # each call starts from the buffers' values; else store detached values
        written = _buffer_writes(ev, hit)
        return [plan("detach_before_write", facts={"names": ", ".join(n for _, n in written)}, line=written[0][0],
                     names=tuple(n for _, n in written)),
                plan("detach_stores", title="add_detach", stores=written)]
    if hit.variant == "written_in_place":  # cut the buffer loose once this call has read it
        return [plan("detach_after_use", facts={"name": name}, line=hit.line, name=name)]
    if hit.variant == "generator":  # cut where the loop hands the output on, each container kept as it was
        made = next((a for a in ev.code.assigns if a.line == hit.line and name in a.targets), None)
        kinds = ev.item_containers(name)
        reads = tuple(sorted(made.reads - {name})) if made else ()
        held = tuple((n, kinds.pop()) for n in reads) if len(kinds) == 1 else ()
        return [plan("add_detach", title="add_detach_read", line=hit.line, names=reads, reads=True, containers=held)] + \
            ([] if held else [plan("add_detach", line=hit.line, names=(name,))])
    if hit.variant == "passed":  # hand the method a detached copy to keep
        return [plan("add_detach", title="add_detach_read", line=hit.line, names=(name,), reads=True)]
    store = next((s for s in ev.code.stores if s.line == hit.line and s.container == name), None)
    if hit.variant == "module_cache":  # a module's memo of its own outputs, while it is trained: recomputed after each step
        cache = hit.fact("holder")
        return [plan("clear_module_cache", facts={"holder": cache}, backward_line=ev.line, holder=cache)]
    if store is not None and recompute_cached(source, line=hit.line) is not None:
        plans = [plan("recompute_cached", line=hit.line)]
        if trained_by_optimizer(ev, store.reads) is False:
            plans.append(plan("add_detach", line=hit.line, names=(name,)))
        return list(plans)
    plans = [plan("clear_after_backward", line=hit.line, backward_line=int(hit.fact("backward_line")), name=name)] \
        if store is not None and store.method == "append" and hit.fact("backward_line") else []
    before_backward = ev.line is not None and hit.line < ev.line  # else the next iteration reads this one's graph
    stores = tuple((int(l), n) for l, n in (s.split(":") for s in hit.fact("stores").split(";"))) \
        if hit.fact("stores") else ()
    fed = [(l, n) for l, n in stores or ((hit.line, name),) if before_backward and not _read_earlier_in_scope(ev, n, l)
           and any(n in a.reads and n in a.targets for a in ev.code.assigns if a.line == l)]
    if len(fed) > 1 and len(fed) == len(stores):  # each cache feeds on its own past: cut each where it reads itself
        plans.append(plan("detach_stores", title="add_detach_read", stores=stores, reads=True))
    elif (hit.line, name) in fed:
        plans.append(plan("add_detach", title="add_detach_read", line=hit.line, names=(name,), reads=True))
    if stores:
        plans.append(plan("detach_stores", title="add_detach", stores=stores))
    held = item_kind({h.container for h in ev.holders_of(name)}, store)  # as the runtime saw the value stored
    plans.append(plan("add_detach", line=hit.line, names=(name,), held=held))
    return list(plans)
