"""Silent problems seen while a cell runs (family C): each backward site's timeline with a
size snapshot of its graph, counts of optimizer steps and zero_grad calls, and the names holding
graphs of many iterations at the cell's end (`holders.py`). Only ints and strings outlive the cell.

Everything here runs on every backward and every step of a watched loop, between kernels that
push the interpreter's code and data out of the CPU's caches: work a step skips is worth several
times its instructions, so a step's line is read only when it is reported."""
from __future__ import annotations

import sys
import weakref
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import NamedTuple

from .frames import frame_line, release_locals
from .graph import NO_SEQ, WALK_LIMIT, live_bytes, nodes_below
from .holders import SPAN, KeptGraph, scan_holders, source_names  # noqa: F401 (KeptGraph: the rules' import)
from .leaf_grads import LeafGrads

GROWTH_CALLS = 3      # a site's graph must reach further back on this many calls in a row
RESAMPLE = 16         # a steady site is walked again on calls RESAMPLE * 2^k: a graph that starts
                      # growing late is seen by the time the loop has run twice as long
_new_tuple = tuple.__new__


class TimelineEvent(NamedTuple):
    """One backward (or autograd.grad) call of a site; sizes are read before it. A call sized as
    the last one is that same object (a NamedTuple, not a dataclass: one per backward at most)."""

    kind: str                      # "backward" | "grad"
    line: int | None               # innermost cell line of the call
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
class GradsAccumulated:
    """An optimizer stepped on .grad that still held the gradients of before its last step."""

    step_line: int | None
    backward_line: int | None
    steps: int
    leaf: str = ""                 # no optimizer: the tensor a hand-written update reads .grad of
    module: bool = False           # ... a parameter of the module named `leaf`


def _cell_line(filename: str, frame) -> int | None:
    while frame is not None:
        if frame.f_code.co_filename == filename:
            return frame_line(frame)
        frame = frame.f_back
    return None


def _no_grad() -> None:
    return None


def _first_grad(optimizer):
    for group in optimizer.param_groups:
        for p in group["params"]:
            grad = p.grad
            if grad is not None:
                return grad
    return None


def measure(roots, since: int) -> tuple[list, int, int, int, bool]:
    """(nodes, how many made at or before `since`, lowest, highest sequence number, truncated)."""
    nodes = nodes_below(roots, WALK_LIMIT)
    seqs = sorted([node._sequence_nr() for node in nodes])  # sorted, the counts are bisections in C
    made = bisect_left(seqs, NO_SEQ)  # leaves (NO_SEQ) last
    low, high = (seqs[0], seqs[made - 1]) if made else (NO_SEQ, -1)
    return nodes, bisect_right(seqs, since, 0, made), low, high, len(nodes) > WALK_LIMIT  # past the limit: not read


def _next_walk(events: list) -> int:
    """How many calls a site will have made when it is next walked (it just was); the calls
    before are sized as its last. Sized as last: its last two calls reached no older node and
    kept one size (a healthy loop; walked again on calls RESAMPLE * 2^k), or both were larger
    than a reading and reached no more old nodes (a long rollout; walked again on calls 2^k).
    A sized call repeats the last one, so from the one after on the last is compared with
    itself: one comparison per backward of a loop instead of these reads."""
    n = len(events)
    if n < 2:
        return n
    a, b = events[-2], events[-1]
    if a.old_nodes == b.old_nodes == 0 and a.nodes == b.nodes:
        sized = n < RESAMPLE or n & (n - 1)
    else:
        sized = a.truncated and b.truncated and a.old_nodes == b.old_nodes and n & (n - 1)
    if not sized:
        return n
    if b.old_nodes == 0:
        n = max(n + 1, RESAMPLE)
    elif b.truncated:
        n += 1
    else:
        return n + 1
    return 1 << (n - 1).bit_length()  # the next power of two


class _Site:
    """The backward calls from one stack of cell lines (one dict entry per site, not three)."""

    __slots__ = ("key", "events", "seq", "span", "walk_at")

    def __init__(self, key: tuple):
        self.key = key                 # its cell lines, outermost first
        self.events: list[TimelineEvent] = []
        self.seq = -1                  # the last sequence number made before its previous call
        self.span: int | None = None   # the sequence-number span of its last walked graph
        self.walk_at = 0               # its call count when it is walked next (_next_walk)


class Timeline:
    """Listener for the backward recorder and the optimizer hooks of one watched cell."""

    def __init__(self, filename: str, origin=None, top_code=None):
        self.filename, self.origin, self.top_code = filename, origin, top_code
        self.sampled: dict[str, KeptGraph] = {}     # holders seen in function frames
        self._idents: frozenset[str] | None = None
        self.ranges: list[tuple[int, int]] = []     # (lowest, highest) seq of each backward
        self._sites: dict[tuple, _Site] = {}        # cell lines of a backward -> its site
        self._by_stack: dict[tuple, _Site] = {}     # the recorder's stack of a backward -> its site
        self._zeros = self._backwards = 0
        self._in_place_zeros = 0                    # of them, zeroings that keep the same .grad tensors
        self._last_backward: int | None = None      # the cell line of the latest backward
        self._optimizers: dict[int, tuple] = {}     # id -> (weakref to a grad, zeros, backwards)
        self._accumulated: list[tuple[int | None, int | None]] = []
        self._leaf_grads = LeafGrads()              # hand-written updates, while no optimizer steps

    def before_backward(self, call: tuple, roots) -> None:
        """`call`: the recorder's (index, stack, iteration, kind, retain, root ids, ...)."""
        stack, kind, root_ids, next_id = call[1], call[3], call[5], call[6]
        site = self._by_stack.get(stack)
        if site is None:
            site = self._site(stack)
        since, site.seq = site.seq, next_id - 1
        events = site.events
        if len(events) < site.walk_at:
            # a healthy loop (or a graph too large to read each time): what was made since this
            # line's last backward, sized as last time; the span read last time, ending at the
            # roots (not all made since: nodes a holder added after that backward are not in it)
            high = -1
            for i in root_ids:  # (a loop: a comprehension is a call of its own, on every backward)
                high = i if i > high else high
            high = high if high >= 0 else since + 1
            low = max(since + 1, high - site.span) if site.span is not None else since + 1
            last = events[-1]  # the same object: nothing made or kept per call of a healthy loop
            event = last if last[0] == kind else _new_tuple(TimelineEvent, (kind, *last[1:]))
        else:
            nodes, old, low, high, truncated = measure(roots, since)
            if high >= low:
                site.span = high - low
            same = events and (events[-1].nodes, events[-1].old_nodes) == (len(nodes), old)
            size = events[-1].live_bytes if same else live_bytes(nodes)  # re-read when the size changes
            event = TimelineEvent(kind, site.key[-1] if site.key else None, len(nodes), old, size, truncated)
            site.walk_at = -1
            if not self._optimizers:
                self._leaf_grads.pick(nodes)
        nodes = roots = None
        events.append(event)
        if site.walk_at < 0:
            site.walk_at = _next_walk(events)
        self.ranges.append((low, high))
        if kind == "backward":
            self._backwards += 1
            self._last_backward = event[1]
        if not self._optimizers and self._leaf_grads.watching:
            self._leaf_grads.before_backward(sys._getframe(1), self.idents, self.top_code, event[1])
        n = len(events)
        # holders are sampled on calls 2^k and (the cell's own frame) 3 * 2^k: a total emptied
        # every 2^j steps is empty on each call 2^k; a function's frame only on 2^k (mid-call, a
        # rollout's own steps can look like iterations kept). Inline: this runs on every backward.
        if n > SPAN and self.origin is not None and (n & (n - 1) == 0 or n % 3 == 0 and (n // 3) & (n // 3 - 1) == 0):
            self._sample_holders(sys._getframe(1), functions=n & (n - 1) == 0)

    def _site(self, stack: tuple) -> _Site:
        """The site of a backward from `stack` (its cell lines), remembered per stack."""
        key = tuple(line for f, line in stack if f == self.filename)
        site = self._sites.get(key)
        if site is None:
            site = self._sites[key] = _Site(key)
        if len(self._by_stack) > 10_000:  # generated code: keep it bounded
            self._by_stack.clear()
        self._by_stack[stack] = site
        return site

    @property
    def idents(self) -> frozenset[str]:
        """The cell's identifiers (the names that may hold graphs), read once a cell."""
        if self._idents is None:
            self._idents = source_names(self.filename)
        return self._idents

    def _sample_holders(self, frame, functions: bool = True) -> None:
        """Holders in the cell's function frames, which are gone by the cell's end (the frames
        between the backward and the cell's own code: the ones below it are its caller's), and
        in the cell's own frame: a total or a list emptied every few steps (`train_loss = 0`
        after each log line, `outputs.clear()` at each epoch's end) holds nothing at the end."""
        idents = self.idents
        while frame is not None:
            code = frame.f_code
            if code is self.top_code or functions and code.co_filename == self.filename and code.co_name != "<module>":
                current = self.ranges[-1] if code is self.top_code else None  # the step's own loss: not walked
                for kept in scan_holders(frame.f_locals, idents, self.origin, self.ranges, current):
                    self.sampled[kept.path] = kept
                release_locals(frame)
            if code is self.top_code:
                break
            frame = frame.f_back

    def backwards(self) -> dict[tuple, list[TimelineEvent]]:
        """Each backward site's cell lines (outermost first) -> its calls, in order."""
        return {key: list(site.events) for key, site in self._sites.items()}

    @property
    def zero_grads(self) -> int:
        return self._zeros

    def zeroed(self, in_place: bool = True) -> None:
        self._zeros += 1
        self._in_place_zeros += in_place

    def before_step(self, optimizer, args, kwargs) -> None:
        """An optimizer is about to step: is its first gradient the one it stepped on last time,
        with a backward since and no zero_grad (gradients of two steps summed)?"""
        grad = _first_grad(optimizer)
        previous = self._optimizers.get(id(optimizer))
        same = previous is not None and grad is not None and previous[0]() is grad
        # (another optimizer's zero_grad that sets its own gradients to None leaves these as they
        # are: a GAN that zeroes the discriminator's and never the generator's)
        if same and previous[1] == self._in_place_zeros and self._backwards > previous[2]:
            self._accumulated.append((_cell_line(self.filename, sys._getframe(1)), self._last_backward))
        ref = previous[0] if same else weakref.ref(grad) if grad is not None else _no_grad
        self._optimizers[id(optimizer)] = (ref, self._in_place_zeros, self._backwards)

    def close(self) -> None:
        """Drop the weak references; keep the ints."""
        self._optimizers.clear()
        self._leaf_grads.close()

    def findings(self, calls=()) -> tuple:
        """GraphGrowth per backward site whose graph reached further back on each of its last
        GROWTH_CALLS calls, keeping more saved memory; GradsAccumulated when a step used
        gradients of before its last step."""
        out: list = []
        for key, site in self._sites.items():
            last = site.events[-GROWTH_CALLS - 1:]
            olds = [e.old_nodes for e in last]
            # and the memory it keeps grows: a chain of nodes that save nothing (`x = x + step`
            # with `step` detached) costs next to nothing per call
            if len(last) > GROWTH_CALLS and all(a < b for a, b in zip(olds, olds[1:])) and \
                    last[-1].live_bytes > last[0].live_bytes:
                out.append(GraphGrowth(key, len(site.events), tuple(e.nodes for e in last),
                                       tuple(e.live_bytes for e in last)))
        if self._accumulated:
            step, backward = self._accumulated[0]
            out.append(GradsAccumulated(step, backward, len(self._accumulated)))
        elif self._leaf_grads.found and self._leaf_grads.found[0] and not self._optimizers:
            leaf, module, backward = self._leaf_grads.found
            out.append(GradsAccumulated(None, backward, self._backwards, leaf, module))
        return tuple(out)
