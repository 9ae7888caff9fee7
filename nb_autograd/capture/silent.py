"""Silent problems seen while a cell runs (family C): the backward timeline with a size
snapshot of each graph, optimizer step / zero_grad calls, and the names holding graphs of
many iterations at the cell's end. Only ints and strings outlive the cell."""
from __future__ import annotations

import linecache
import re
import sys
import weakref
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import torch

from . import touch
from .backwards import RECORDER
from .failure import _tensor_values
from .graph import NO_SEQ, live_bytes as _node_bytes, walk, walk_with_children

GROWTH_CALLS = 3      # a site's graph must reach further back on this many calls in a row
SPAN = 3              # a holder must keep nodes of this many iterations of one line
WALK_LIMIT = 2_000    # nodes read per graph: enough to see earlier iterations' nodes pile up
_next_seq = torch._C._autograd._get_sequence_nr


class TimelineEvent(NamedTuple):
    """One backward / step / zero_grad call, in order; sizes are read before a backward.
    (A NamedTuple, not a dataclass: one is made per backward and per step of a watched loop.)"""

    kind: str                      # "backward" | "grad" | "step" | "zero_grad"
    line: int | None               # innermost cell line of the call
    index: int | None = None       # BackwardCall.index for backward/grad
    nodes: int = 0                 # graph nodes reachable from the roots
    old_nodes: int = 0             # ... made before the previous call from the same lines
    live_bytes: int = 0            # live saved bytes in it (re-read when the size changes)
    truncated: bool = False        # the graph went on below what was read


@dataclass(frozen=True)
class GraphGrowth:
    """A backward site whose graph reaches further into earlier iterations on every call."""

    lines: tuple[int, ...]         # cell lines of the backward call, outermost first
    calls: int
    nodes: tuple[int, ...]
    live_bytes: tuple[int, ...]


@dataclass(frozen=True)
class KeptGraph:
    """A name that, at the cell's end, holds graphs of many iterations nobody backpropagated."""

    path: str
    nodes: int
    live_bytes: int
    iterations: int
    lines: tuple[int, ...]         # cell lines whose nodes it keeps, one per iteration


@dataclass(frozen=True)
class GradsAccumulated:
    """An optimizer stepped on .grad that still held the gradients of before its last step."""

    step_line: int | None
    backward_line: int | None
    steps: int


def _cell_line(filename: str, frame) -> int | None:
    while frame is not None:
        if frame.f_code.co_filename == filename:
            return frame.f_lineno
        frame = frame.f_back
    return None


def live_bytes(nodes) -> int:
    return sum(_node_bytes(node) for node in nodes)


def measure(roots, since: int) -> tuple[list, int, int, int, bool]:
    """(nodes, how many made at or before `since`, lowest, highest sequence number, truncated)."""
    nodes, old, low, high, truncated = [], 0, NO_SEQ, -1, False
    for node, kids in walk_with_children(roots, WALK_LIMIT):
        truncated |= kids is None
        nodes.append(node)
        seq = node._sequence_nr()
        if seq != NO_SEQ:
            old += seq <= since
            low, high = min(low, seq), max(high, seq)
    return nodes, old, low, high, truncated


STEADY = 2  # after this many same-sized backward calls from a line, walk only calls RESAMPLE * 2^k
RESAMPLE = 16  # a graph that starts growing late is seen by the time the loop has run twice as long


def _due(n: int) -> bool:
    return n >= RESAMPLE and n & (n - 1) == 0


def _steady(site: list) -> bool:
    """The last STEADY measured calls from this line reached no older node and kept one size."""
    last = site[-STEADY:]
    return len(last) == STEADY and all(e.old_nodes == 0 for e in last) and len({e.nodes for e in last}) == 1


def _saturated(site: list) -> bool:
    """The last calls' graphs were larger than a reading and reached no more old nodes: read
    again only on calls 2^k, so a long rollout of backward calls costs no walk per call."""
    last = site[-2:]
    return len(last) == 2 and all(e.truncated for e in last) and last[0].old_nodes == last[1].old_nodes


class Timeline:
    """Listener for the backward recorder and the optimizer hooks of one watched cell."""

    def __init__(self, filename: str, origin=None, top_code=None):
        self.filename, self.origin, self.top_code = filename, origin, top_code
        self.sampled: dict[str, KeptGraph] = {}     # holders seen in function frames
        self.events: list[TimelineEvent] = []
        self.ranges: list[tuple[int, int]] = []     # (lowest, highest) seq of each backward
        self._site_seq: dict[tuple, int] = {}
        self._sites: dict[tuple, list[TimelineEvent]] = {}
        self._spans: dict[tuple, int] = {}          # site -> seq span of its last walked graph
        self._zeros = self._backwards = 0
        self._optimizers: dict[int, tuple] = {}     # id -> (weakref to a grad, zeros, backwards)
        self._accumulated: list[tuple[int | None, int | None]] = []

    def before_backward(self, index: int, roots) -> None:
        raw = RECORDER.raw(index)
        stack = raw[1] if raw else ()
        key = tuple(line for f, line in stack if f == self.filename)
        since, self._site_seq[key] = self._site_seq.get(key, -1), _next_seq() - 1
        site = self._sites.setdefault(key, [])
        kind = raw[3] if raw else "backward"
        n = len(site)
        if (_steady(site) and not _due(n)) or (_saturated(site) and n & (n - 1)):
            # a healthy loop (or a graph too large to read each time): what was made since this
            # line's last backward, sized as last time; the span read last time, ending at the
            # roots (not all made since: nodes a holder added after that backward are not in it)
            ids = [i for i in (raw[5] if raw else ()) if i >= 0]
            span = self._spans.get(key)
            high = max(ids, default=since + 1)
            low = max(since + 1, high - span) if span is not None else since + 1
            last = site[-1]  # (not dataclasses.replace: this runs on every backward of a loop)
            event = TimelineEvent(kind, last.line, index, last.nodes, last.old_nodes, last.live_bytes, last.truncated)
        else:
            nodes, old, low, high, truncated = measure(roots, since)
            if high >= low:
                self._spans[key] = high - low
            same = site and (site[-1].nodes, site[-1].old_nodes) == (len(nodes), old)
            size = site[-1].live_bytes if same else live_bytes(nodes)  # re-read when the size changes
            event = TimelineEvent(kind, key[-1] if key else None, index, len(nodes), old, size, truncated)
        nodes = roots = None
        self.events.append(event)
        site.append(event)
        self.ranges.append((low, high))
        self._backwards += kind == "backward"
        n = len(site)
        if n > SPAN and n & (n - 1) == 0 and self.origin is not None:  # calls 4, 8, 16, ...
            self._sample_functions(sys._getframe(1))

    def _sample_functions(self, frame) -> None:
        """Holders in the cell's function frames, which are gone by the cell's end (the frames
        between the backward and the cell's own code: the ones below it are its caller's)."""
        idents = source_names(self.filename)
        while frame is not None and frame.f_code is not self.top_code:
            code = frame.f_code
            if code.co_filename == self.filename and code.co_name != "<module>":
                for kept in scan_holders(frame.f_locals, idents, self.origin, self.ranges):
                    self.sampled[kept.path] = kept
            frame = frame.f_back

    def zeroed(self, what=None) -> None:
        self._zeros += 1
        if what is not None:
            self.events.append(TimelineEvent("zero_grad", _cell_line(self.filename, sys._getframe(2))))

    def before_step(self, optimizer, args, kwargs) -> None:
        line = _cell_line(self.filename, sys._getframe(1))
        grad = next((p.grad for g in optimizer.param_groups for p in g["params"] if p.grad is not None), None)
        previous = self._optimizers.get(id(optimizer))
        if previous and grad is not None and previous[0]() is grad and previous[1] == self._zeros \
                and self._backwards > previous[2]:
            backward = next((e.line for e in reversed(self.events) if e.kind == "backward"), None)
            self._accumulated.append((line, backward))
        self._optimizers[id(optimizer)] = (weakref.ref(grad) if grad is not None else lambda: None,
                                           self._zeros, self._backwards)
        self.events.append(TimelineEvent("step", line))

    def close(self) -> None:
        """Drop the weak references; keep the ints."""
        self._optimizers.clear()

    def findings(self, calls=()) -> tuple:
        """GraphGrowth per backward site whose graph reached further back on each of its last
        GROWTH_CALLS calls; GradsAccumulated when a step used gradients of before its last step."""
        out: list = []
        for key, events in self._sites.items():
            last = events[-GROWTH_CALLS - 1:]
            olds = [e.old_nodes for e in last]
            if len(last) > GROWTH_CALLS and all(a < b for a, b in zip(olds, olds[1:])):
                out.append(GraphGrowth(key, len(events), tuple(e.nodes for e in last),
                                       tuple(e.live_bytes for e in last)))
        if self._accumulated:
            step, backward = self._accumulated[0]
            out.append(GradsAccumulated(step, backward, len(self._accumulated)))
        return tuple(out)


def source_names(filename: str) -> frozenset[str]:
    """The identifiers in `filename`'s source, read once per text (sampled, then at the cell's end)."""
    return _names("".join(linecache.getlines(filename)))


@lru_cache(maxsize=16)
def _names(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[A-Za-z_]\w*", text))


def scan_holders(namespace: dict, idents: frozenset[str], origin, ranges) -> list[KeptGraph]:
    """Names of the cell holding graphs that span SPAN or more iterations of one line, unless
    one backward went through them (a loss summed over the loop, then backpropagated)."""
    groups: dict[str, list] = {}
    for name, value in list(namespace.items()):
        if name in idents and not name.startswith("_"):
            for path, tensor in _tensor_values(name, value, idents):
                node = touch.node_of(tensor)
                if node is not None:
                    groups.setdefault(path.split("[")[0], []).append(node)
    out = []
    for path, roots in groups.items():
        ids = {r._sequence_nr() for r in roots}
        per_line: dict[int, set[int]] = {}
        nodes = size = 0
        oldest = NO_SEQ
        for node in walk(roots, WALK_LIMIT):
            nodes += 1
            seq = node._sequence_nr()
            oldest = min(oldest, seq) if seq != NO_SEQ else oldest
            line, iteration = origin(seq)
            if line is not None:
                per_line.setdefault(line, set()).add(iteration)
            size += live_bytes((node,))
        # backpropagated as a whole (a loss summed over the loop): one backward's graph held it
        # all, from its roots down to its oldest node (a running statistic updated inside each
        # forward sits in the last step's graph, but reaches far older steps)
        if any(sum(lo <= i <= hi for i in ids) >= min(2, len(ids)) and oldest >= lo for lo, hi in ranges):
            continue
        lines = tuple(sorted(l for l, its in per_line.items() if len(its) >= SPAN))
        if lines:
            out.append(KeptGraph(path, nodes, size, max(len(per_line[l]) for l in lines), lines))
    return sorted(out, key=lambda k: -k.nodes)
