"""A tensor autograd saved for the backward pass was changed in place before the backward ran."""
from __future__ import annotations

import re
from collections import Counter

from ...evidence import Evidence
from ...evidence.errors import FACTORIES, InplaceOp, read_errors
from ...fixes.plan import plan
from ._step_moves import step_plans
from ..base import Hit
from .inplace_modified_saved_tensor_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "inplace_modified_saved_tensor"
SYMPTOM = "inplace_modified"

def _producer_lines(ev: Evidence) -> frozenset[int]:
    """Where the modified tensor may have been made: the lines of the graph's nodes of the op
    the message names (watcher)."""
    producer = ev.symptom.get("producer") if ev.symptom else ""
    graph = ev.failure.graph if ev.failure else None
    if not producer or graph is None:
        return frozenset()
    changed = set(graph.modified)  # the runtime unpacked the saved tensors: these were written since
    return frozenset(n.line for n in graph.nodes if n.op.startswith(producer) and n.line and (not changed or n.id in changed))


def _saved_at(ev: Evidence) -> frozenset[int]:
    """Lines that made the nodes whose saved tensors the runtime found written (watcher)."""
    graph = ev.failure.graph if ev.failure else None
    changed = set(graph.modified) if graph else set()
    return frozenset(n.line for n in graph.nodes if n.id in changed and n.line) if changed else frozenset()


def _writes_what_was_saved(ev: Evidence, op: InplaceOp, saved_at: frozenset[int]) -> bool:
    """`op` writes, later in the same function, a name a line in `saved_at` read or made
    (`x_conv = self.pos_conv(x.transpose(1, 2))`, then `x += x_conv`)."""
    f = ev.code.function_at(op.line)
    return bool(op.target) and any(a.line in saved_at and a.line < op.line and ev.code.function_at(a.line) is f
                                   and op.target in (*a.reads, *a.targets) for a in ev.code.assigns)


# The message's "output 0 of Div" names the op that produced the saved tensor. When that op
# was itself in place (`x /= 2`, `ReLU(inplace=True)`), the saved version counts its write
# ("expected version 1"): the op written with that operator made the tensor, and the write
# that broke it comes later, unless that op wrote into its function's argument: then the
# saved tensor is the caller's, which the caller goes on writing, and the fix is to stop
# aliasing it there. Otherwise an op written with the producer's operator is the likely
# writer (`h = sigmoid(z); h.sigmoid_()`).
_WRITES = {"Div": ("/=", "div_"), "Mul": ("*=", "mul_"), "Add": ("+=", "add_"), "Sub": ("-=", "sub_"),
           "Relu": ("relu", "inplace"), "Threshold": ("relu", "threshold"), "Sigmoid": ("sigmoid_",),
           "Tanh": ("tanh_",), "Clamp": ("clamp_",), "Pow": ("**=", "pow_"), "Exp": ("exp_",)}


def _score(ev: Evidence, op: InplaceOp, made_at: frozenset[int], producer_wrote: bool, in_group: bool,
           saved_at: frozenset[int] = frozenset()) -> float:
    producer = ev.symptom.get("producer")
    score = 0.7 + (0.25 if _writes_what_was_saved(ev, op, saved_at) else 0)
    if producer and any(w in op.text for w in _WRITES.get(producer.removesuffix("Backward0"), ())):
        score += -0.15 if producer_wrote and not _writes_callers_tensor(ev, op) else 0.15
    if in_group:
        score += 0.1 - 2 * op.line / 1e6  # as many writes into this name as the version moved on: the first
    if producer and _allocated_here(ev, op):  # a fresh buffer is no op's output: not the tensor the message names
        score -= 0.3
    made_here = {a.line for a in ev.code.assigns_to(op.target)} if op.target else set()
    if made_at & made_here or not made_at and _made_by_producer(ev, op, producer):
        score += 0.2
    written = ev.failure.written_by if ev.failure else ()
    buffers = {t.rsplit(".", 1)[-1] for t in ev.failure.written_tensors} if ev.failure and not written else set()
    if buffers and op.target:  # the runtime found a buffer of that shape and version (MoCo's queue): its writer
        score += 0.5 if op.kind != "step" and op.target.rsplit(".", 1)[-1] in buffers else -0.2
    if op.kind == "step" and written:  # the runtime found whose parameter it is: that optimizer's step
        score += 0.5 if op.target in written else -0.3
        if op.target in written and len(written) > 1:  # twin critics both reached: the first step broke the graph
            score -= 2 * op.line / 1e6
    elif op.kind == "step":
        score += 0.2 if producer in {"AsStrided", "T", "", "TBackward0"} or not producer else -0.3
    if op.kind == "step" and ev.line is not None and op.line > ev.line:  # only through the loop's wrap-around:
        score -= 0.05                                                  # a step between the forward and this backward comes first
    elif op.kind == "inplace_kw" and made_at and op.line <= max(made_at):
        score += 0.1
    return score + op.line / 1e6  # the latest write wins a tie


def _made_by_producer(ev: Evidence, op: InplaceOp, producer: str | None) -> bool:
    """Without the graph: the name `op` writes was last assigned, in its function, from a call
    of the op the message names (`res1 = torch.exp(...)` then `res1 += ...` for "output 0 of
    ExpBackward0"): the likely saved tensor."""
    name = (producer or "").removesuffix("Backward0").removesuffix("Backward1").lower()
    last = _last_assign_before(ev, op)
    return bool(name) and last is not None and (last.call or "").rpartition(".")[2].lower() == name


def _last_assign_before(ev: Evidence, op: InplaceOp):
    """The last assignment, in `op`'s function, of the name `op` writes into; None if none."""
    before = [a for a in ev.code.assigns_to(op.target or "") if a.line < op.line
              and ev.code.function_at(a.line) is ev.code.function_at(op.line)]
    return max(before, key=lambda a: a.line) if before else None


def _allocated_here(ev: Evidence, op: InplaceOp) -> bool:
    """The name `op` writes was last assigned, in its function, from a factory
    (`outputs = torch.empty_like(inputs)`, then `outputs[:, idx] = ...`): a tensor no graph op made."""
    last = _last_assign_before(ev, op)
    return last is not None and (last.call or "").rpartition(".")[2] in FACTORIES


def _companion_writes(ev: Evidence, line: int) -> tuple[int, ...]:
    """The saved tensor took more writes than the one at `line` (the version moved on by more
    than one): the same write into other names in that function (`widths /= s`, then
    `heights /= s`, on two slices of one output), nearest first, as many as are missing."""
    versions = _versions(ev)
    missing = versions[0] - versions[1] - 1 if versions else 0
    ops = read_errors(ev.capture.source).inplace_before(ev.line) if missing > 0 else ()
    op = next((o for o in ops if o.line == line and o.target), None)
    if op is None:
        return ()
    tail = lambda o: o.text.partition(o.target)[2]  # noqa: E731  (the operator and what it writes)
    alike = sorted((o for o in ops if o.kind == op.kind and o.function == op.function and o.target
                    and o.target != op.target and tail(o) == tail(op)), key=lambda o: abs(o.line - line))
    return tuple(sorted(o.line for o in alike[:missing])) if len(alike) >= missing else ()


def _versions(ev: Evidence) -> tuple[int, int] | None:
    """(version now, version expected) of the saved tensor, when the message says."""
    s = ev.symptom
    now, expected = (s.get("version_now"), s.get("version_expected")) if s else (None, None)
    return (int(now), int(expected)) if str(now).isdigit() and str(expected).isdigit() else None


def _writes_callers_tensor(ev: Evidence, op: InplaceOp) -> bool:
    """`op` writes into a parameter of the function it is in (`def forward(self, x): x /= n`)."""
    f = ev.code.function_at(op.line)
    if f is None or f.name != op.function:
        return False
    return op.target in (f.params[1:] if f.params[:1] == ("self",) else f.params)


def match(ev: Evidence) -> Hit | None:
    if ev.line is None:
        return None
    facts = read_errors(ev.capture.source)
    ops = facts.inplace_before(ev.line)
    loops = [(a, b) for a, b, kind in ev.scopes if kind == "loop" and a <= ev.line <= b]
    # a step later in a loop around the backward runs before its next pass (found by the runtime)
    ops += tuple(op for op in facts.inplace if op.kind == "step" and op not in ops and ev.failure.written_by
                 and op.target in ev.failure.written_by and any(a <= op.line <= b for a, b in loops))
    if not ops:
        return Hit(CAUSE, ev.line, 0.4, facts=_facts(ev, None), variant="unknown")
    made_at = _producer_lines(ev)
    versions = _versions(ev)
    jump = versions[0] - versions[1] if versions else 0  # writes the saved tensor took after it was saved
    producer_wrote = versions is not None and versions[1] >= 1  # its own write is counted in what was saved
    group = Counter((o.target, o.function) for o in ops if o.target)
    saved_at = _saved_at(ev) if not made_at else frozenset()
    op = max(ops, key=lambda o: _score(ev, o, made_at, producer_wrote, jump > 1 and group[o.target, o.function] == jump,
                                       saved_at))
    return Hit(CAUSE, op.line, 0.9, facts=_facts(ev, op), related=(("backward", ev.line),),
               variant=op.kind)


def _facts(ev: Evidence, op: InplaceOp | None) -> tuple[tuple[str, str], ...]:
    s = ev.symptom
    return (("op", op.text if op else "?"), ("name", op.target if op else "?"),
            ("line", str(op.line if op else ev.line)), ("backward_line", str(ev.line)),
            ("tensor", s.get("tensor", "?")), ("producer", s.get("producer") or "@inplace_modified_saved_tensor.no_producer"),
            ("version_now", s.get("version_now", "?")), ("version_expected", s.get("version_expected", "?")))


def _list_of_tensors(ev: Evidence, name: str) -> bool:
    """`name` was built as a Python list (`[conv(x) for ...]`, `[]`, `list(...)`)."""
    made = [ev.code.line_text(a.line) for a in ev.code.assigns_to(name)]
    return bool(made) and all(re.search(rf"{re.escape(name)}\s*=\s*(\[|list\()", t) for t in made)


def plans(hit: Hit, ev: Evidence) -> list:
    line, facts = hit.line, dict(hit.facts)
    plans = []
    if hit.variant == "step":
        plans = step_plans(hit, ev, facts)
    elif hit.variant == "setitem":
        plans = [plan("clone_before_write", facts=facts, line=line, name=hit.fact("name"))]
        if _list_of_tensors(ev, hit.fact("name")):  # `laterals[i] += up`: the element is written in place;
            plans.insert(0, plan("out_of_place", facts=facts, line=line))  # the list may take a new one
    elif hit.variant == "inplace_kw":  # `inplace=True` layers often come in pairs (LeakyReLU then Dropout):
        # dropping every such flag computes the same values and cannot leave the next one behind
        plans = [plan("out_of_place", title="out_of_place_all_flags", facts=facts, line=line, every_flag=True),
                 plan("out_of_place", facts=facts, line=line)]
    elif hit.variant in {"augassign", "method", "functional"}:
        also = _companion_writes(ev, line)
        ops = {o.line: o.target for o in read_errors(ev.capture.source).inplace}
        plans = [plan("out_of_place", title="out_of_place_together", facts={**facts, "names": ", ".join(
            f"`{ops[l]}`" for l in also)}, line=line, also=also)] if also else []
        plans.append(plan("out_of_place", facts=facts, line=line))
        text = ev.code.line_text(line).strip()
        if hit.variant == "augassign" and sum(t.strip() == text for t in ev.code.lines) > 1:  # written alike elsewhere
            plans.insert(0, plan("out_of_place", title="out_of_place_twins", facts=facts, line=line, twins=True))
    return list(plans)
