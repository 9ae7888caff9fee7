"""An RNN/LSTM/GRU state is carried from one batch to the next without detach."""
from __future__ import annotations

import re

from ...evidence import Evidence
from ...evidence.errors import read_errors
from ..base import Hit
from ._per_step import per_step_losses
from .recurrent_state_not_detached_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "recurrent_state_not_detached"
SYMPTOM = "second_backward"
STATE_NAME = re.compile(r"(^|\.|_)(h|c|hx|cx|hn|cn|h0|c0|h_0|c_0|h_t|c_t|hc|hid|hidden\w*|\w*hidden|\w*state\w*|carry|memory_state)(_?\d)?$", re.I)  # `encoder_h_1`: one per layer
RECURRENT_CALL = re.compile(r"rnn|lstm|gru|cell|recur", re.I)
NEURON_STATE = re.compile(r"^(mem\w*|membrane\w*|v|u|v_?mem\w*|spk|spike\w*|syn\w*|potential\w*|trace\w*)$", re.I)
_INITIAL = re.compile(r"(^|\.)(zeros|zeros_like|ones|ones_like|full|full_like|empty|empty_like|tensor|randn|rand|clone)$")



def recurrent_states(ev: Evidence) -> list[tuple[str, int, str]]:
    """(name, line, callee) of carried names re-assigned from a call that also takes them."""
    found = []
    for a in ev.code.assigns:
        if a.detached:
            continue
        call = a.call or _handed_over(ev, a)
        for name in a.targets:
            if call is not None and ev.in_loop_scope(a.line, name) and (name in a.call_args or a.call is None) \
                    and ev.carried(name) and (STATE_NAME.search(name) or RECURRENT_CALL.search(call)):
                found.append((name, a.line, call))
            elif call is None and (stepped := _stepped_in_time(ev, a, name)):
                found.append((name, a.line, stepped))
    return found


def _stepped_in_time(ev: Evidence, a, name: str) -> str | None:
    """`mem = beta * mem + fc(x[t])` in a time loop inside the loop that backpropagates: a
    hand-written recurrence (a neuron's membrane, a cell loop), whose state crosses batches.
    Its gradient through time is meant; the cut belongs where each batch starts. The first
    call on that line (`fc`), else None."""
    loop = ev.loop
    called = next((c.func for c in ev.code.calls if c.line == a.line), None)
    inner = loop is not None and any(l.line > loop.line and loop.contains(l.line) for l in ev.code.loops_at(a.line))
    return called if inner and name in a.reads and ev.carried(name) else None


def _handed_over(ev: Evidence, a) -> str | None:
    """`input_state = output_state`, where `output_state` came from a call that took
    `input_state` (`out, output_state = model(x, input_state)`): the callee, else None."""
    if len(a.targets) != 1 or len(a.reads) != 1:
        return None
    (name,), (source,) = a.targets, a.reads
    made = [b for b in ev.code.assigns_to(source) if b.line < a.line and b.call]
    last = max(made, key=lambda b: b.line) if made else None
    return last.call if last is not None and name in last.call_args and not last.detached else None


def fed_back(ev: Evidence) -> Hit | None:
    """Without a loop: a state one call of a module hands back is fed into the next call of
    the same module (`out, s = model(x)` ... `out, _ = model(x, s)`), and the runtime found it
    holding the freed graph. Named where it was made; cut where the next call reads it."""
    for b in ev.code.assigns:
        if b.call is None or ev.line is not None and b.line > ev.line:
            continue
        for name in sorted(b.call_args):
            made = [a for a in ev.code.assigns_to(name) if a.line < b.line]
            a = max(made, key=lambda a: a.line) if made else None
            if a is not None and a.call == b.call and len(a.targets) > 1 and not a.detached and ev.reaches_stale(name):
                return Hit(CAUSE, a.line, 0.88, facts=(("name", name), ("line", str(a.line)), ("call", a.call),
                                                       ("loop_line", str(a.line)), ("second_line", str(b.line))),
                           related=(("backward", ev.line),), variant="fed_back")
    return None


def module_states(ev: Evidence) -> list[tuple[str, int, str]]:
    """(self.attr, line, holder path) for state a module keeps on itself and updates in its own
    methods (a spiking neuron's membrane `self.mem = beta * self.mem + x`), found at run time
    on a module the failing graph reaches. Its line is the last update (the value the next
    batch starts from), not the initialisation."""
    found = []
    for holder in ev.holders:
        attr = holder.path.rsplit(".", 1)[-1] if "." in holder.path else ""
        attr = attr.split("[")[0] if attr.endswith("]") and attr.count("[") == 1 else attr  # `self.hidden = (h, c)`
        if not holder.reaches_stale or "[" in attr or not (NEURON_STATE.match(attr) or STATE_NAME.search(attr)):
            continue
        updates = [a for a in ev.code.assigns_to("self." + attr) if not a.detached and not a.no_grad
                   and (a.call is None or not _INITIAL.search(a.call)) and a.reads
                   and not (_in_setup(ev, a.line) and "self." + attr not in a.reads)]  # a spike's reset updates it
        if updates:
            own = [a for a in updates if "self." + attr in a.reads]
            found.append(("self." + attr, own[-1].line if own else updates[-1].line, holder.path))
    return found


def _in_setup(ev: Evidence, line: int) -> bool:
    """In a constructor or a reset method: where state is set up, not carried."""
    f = ev.code.function_at(line)
    return f is None or f.name == "__init__" or "reset" in f.name or "detach" in f.name


def match(ev: Evidence) -> Hit | None:
    if ev.same_root_call or ev.backward_site is None and not ev.loop:
        return None
    if per_step_losses(ev) is not None:
        return None  # one update's per-step losses (shared_subgraph): detaching would cut off the encoder
    if ev.freed_in_same_pass and not _freed_before_the_loop(ev):  # two backward calls in one pass: only a
        return fed_back(ev) if ev.loop is None and ev.has_runtime_staleness else None  # state handed from one to the next
    return _hit(ev, recurrent_states(ev))


def _freed_before_the_loop(ev: Evidence) -> bool:
    """Every graph-freeing call ran outside the loop that raised, before it (a sanity-check
    batch in the cell above the training loop): what crosses is a state carried into the loop."""
    loop, calls = ev.loop, ev.freeing_calls
    return loop is not None and bool(calls) and all(
        c.stack_lines and c.stack_lines[-1] < loop.line and not any(loop.contains(l) for l in c.stack_lines) for c in calls)


def _hit(ev: Evidence, states: list) -> Hit | None:
    if ev.has_runtime_staleness:
        states = [s for s in states if ev.holder(s[0]) is None or ev.reaches_stale(s[0])]
        states.sort(key=lambda s: ev.holder(s[0]) is None)  # seen holding the stale graph first
    if not states and ev.has_runtime_staleness and ev.backward_site is not None:
        kept = module_states(ev)
        if kept:
            name, line, path = kept[0]
            return Hit(CAUSE, line, 0.88, facts=(("name", name), ("line", str(line)), ("holder", path),
                                                 ("model", path.split(".")[0]), ("attr", name[5:]),
                                                 ("backward_line", str(ev.backward_site.line))),
                       related=(("backward", ev.line),), variant="module_state")
    if not states:
        return None
    discarded = read_errors(ev.capture.source).discarded_detaches
    if any(f.name == "detach" for f in ev.code.functions):  # a state class's own detach(): `state.detach()`
        # calls that method; the tensors' detach thrown away is inside it
        discarded = tuple(d for d in discarded if getattr(ev.code.function_at(d[0]), "name", "") == "detach")
    if discarded:  # the program meant to detach, but threw the detached tensor away
        line, receiver = discarded[-1]
        return Hit(CAUSE, line, 0.9, facts=(("name", receiver), ("line", str(line)), ("state", states[0][0]),
                                            ("state_line", str(states[0][1])),
                                            ("loop_line", str(ev.loop.line if ev.loop else line))),
                   related=(("backward", ev.line),), variant="discarded_detach")
    name, line, call = states[0]
    top = ev.loop.line if ev.loop else line
    once = _detached_before_loop(ev, name, top)
    if once is not None:  # cut once, before the loop: the cut is there, but not once per batch
        return Hit(CAUSE, once, 0.88, facts=(("name", name), ("line", str(line)), ("call", call), ("loop_line", str(top)),
                                             ("detached_line", str(once))),
                   related=(("backward", ev.line),), variant="detached_once")
    return Hit(CAUSE, line, 0.88, facts=(("name", name), ("line", str(line)), ("call", call), ("loop_line", str(top))),
               related=(("backward", ev.line),))


def _detached_before_loop(ev: Evidence, name: str, top: int) -> int | None:
    """The state's last assignment before the outermost loop holding the failing backward is
    a detach (`hidden = (hidden[0].detach(), hidden[1].detach())` in the cell before the loop):
    the program cuts the graph once, where it should cut it at each batch."""
    loops = [l.line for l in ev.code.loops_at(top)] or [top]
    start = min(loops)
    before = [a for a in ev.code.assigns_to(name) if a.line < start]
    last = max(before, key=lambda a: a.line) if before else None
    return last.line if last is not None and last.detached and ev.code.function_at(last.line) is \
        ev.code.function_at(start) else None


def plans(hit: Hit, ev: Evidence) -> list:
    """Truncated BPTT: detach every state the recurrent call hands back, once per backward (at
    the top of the body that holds both the update and the backward, else right after the
    update); or, for plain tensor states, where the call reads them."""
    from ...fixes.plan import plan

    if hit.variant == "fed_back":  # a state is detached where the next call reads it, a container kept as it was
        name = hit.fact("name")
        from ...fixes.add_detach import items_detached

        kinds = ev.item_containers(name)
        if kinds and (len(kinds) > 1 or not items_detached(name, *kinds)):
            return []
        return [plan("add_detach", title="add_detach_read", line=int(hit.fact("second_line")), names=(name,),
                     reads=True, containers=tuple((name, k) for k in kinds))]
    if hit.variant == "discarded_detach":  # keep the detached tensor; else detach the state itself
        root = hit.fact("state").split(".")[0].split("[")[0]  # the states as the runtime held them: a view
        views = any(h.view for h in ev.holders if h.path.split(".")[0].split("[")[0] == root)  # cannot be detached in place
        return [plan("assign_detach", line=hit.line, in_place=not views)] + \
            _state_plans(ev, int(hit.fact("state_line")), hit.fact("state"), int(hit.fact("loop_line")))
    if hit.variant == "module_state":  # start each batch from the program's own reset, else cut the graph there
        from ...fixes.reset_module_state import reset_call

        where = {"backward_line": int(hit.fact("backward_line")), "model": hit.fact("model"), "attr": hit.fact("attr")}
        call = reset_call(ev.capture.source, where["model"])
        detach = plan("reset_module_state", title="detach_module_state", detach=True, facts={"attr": where["attr"]}, **where)
        first = [plan("reset_module_state", facts={"call": call}, **where)] if call else []
        if not call:  # a module that says how its state starts (`self.hidden = self.init_hidden()`)
            from ...fixes.reinit_state import reinit_call

            start = reinit_call(ev.capture.source, line=hit.line, name=hit.fact("name"), backward_line=where["backward_line"])
            first = [plan("reinit_state", facts={"call": start}, line=hit.line, name=hit.fact("name"),
                          backward_line=where["backward_line"])] if start else []
        return first + [detach]
    line = int(hit.fact("line")) if hit.variant == "detached_once" else hit.line
    return _state_plans(ev, line, hit.fact("name"), int(hit.fact("loop_line")))


def _state_plans(ev: Evidence, line: int, name: str, loop_line: int) -> list:
    """Detach the states the recurrent call at `line` hands back (or, for plain tensors, where it reads them)."""
    from ...fixes.add_detach import items_detached
    from ...fixes.detach_state import plain_state
    from ...fixes.plan import plan

    loops = ev.code.loops_at(line)  # and the states of the other recurrent calls in the same loop body (encoder, decoder)
    names = tuple(dict.fromkeys(n for n, at, _ in recurrent_states(ev)
                                if at == line or loops and ev.code.loops_at(at)[-1:] == loops[-1:])) or (name,)
    held = [h for n in names for h in ev.holders_of(n)]
    kinds = ev.item_containers(*names)
    indexed = {n for n in names if any("[" in h.path for h in ev.holders_of(n))}
    as_tuple = True if indexed and (len(names) == 1 or len(indexed) == len(names)) else False if held else None  # seen at run time
    if len(names) == 1 and len(kinds) == 1 and kinds != {"tuple"} and items_detached(names[0], *kinds):
        as_tuple = kinds.pop()  # a NamedTuple, a list or dict of states: detached and kept that kind
    attributes = _object_attributes(ev, names[0]) if len(names) == 1 and not held else ()
    if attributes:  # an object of the program's own keeps the state: its tensors are cut, not the object
        names, as_tuple = tuple(a for a, _ in attributes), tuple(k for _, k in attributes)
    where = {"loop_line": loop_line, "line": line, "names": names, "as_tuple": as_tuple,
             "backward_line": _backward_seen_from(ev, line)}
    wanted = [plan("detach_state", **where)]
    if name.startswith("self.") and ev.backward_site is not None:  # a module that never starts its state again
        from ...fixes.reinit_state import reinit_call

        call = reinit_call(ev.capture.source, line=line, name=name, backward_line=ev.backward_site.line)
        if call:
            wanted.insert(0, plan("reinit_state", facts={"call": call}, line=line, name=name,
                                  backward_line=ev.backward_site.line))
    if plain_state(ev.capture.source, **where):
        wanted.append(plan("add_detach", title="add_detach_read", line=line, names=names, reads=True))
    return wanted


def _object_attributes(ev: Evidence, name: str) -> tuple[tuple[str, str], ...]:
    """(attribute, how it holds its tensors: "" for one tensor, "tuple" ...) of a state the
    runtime saw as an object keeping tensors in its attributes (OpenNMT's DecoderState:
    `dec_state.hidden`, `dec_state.input_feed`); () for a tensor, a container or deeper nesting."""
    found: dict[str, set[str]] = {}
    for h in ev.holders:
        rest = h.path[len(name) + 1:] if h.path.startswith(name + ".") else ""
        attr = rest.partition("[")[0]
        if not rest or not attr.isidentifier():
            continue
        found.setdefault(f"{name}.{attr}", set()).add(h.container if "[" in rest else "")
    if any(len(k) != 1 for k in found.values()):
        return ()
    return tuple((a, k.pop()) for a, k in found.items())


def _backward_seen_from(ev: Evidence, line: int) -> int | None:
    """The backward's line as the function holding the update at `line` sees it: the backward
    itself when that function holds it, else that function's call on the failing stack which led
    to it (`self.update(...)` every k steps: the truncation boundary is that call's block)."""
    backward = ev.backward_site.line if ev.backward_site else None
    f = ev.code.function_at(line)
    if backward is None or f is None or f.line < backward <= f.end_line or ev.failure is None:
        return backward
    calls = [l for l in ev.failure.stack_lines if f.line < l <= f.end_line]
    return calls[-1] if calls else backward
