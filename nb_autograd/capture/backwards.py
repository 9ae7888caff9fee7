"""Sees every call into the autograd engine, with the user's line, by wrapping
`_engine_run_backward` (Tensor.backward, autograd.backward and autograd.grad all end there).

Holds the root nodes of the last few graph-freeing calls while a unit (a cell, a script)
runs, so a later failure can intersect graphs and name the backward that freed the reused
part; `end_unit()` turns them into the ids of the nodes they freed and drops them, so across
cells only integers and strings are kept (the last MAX_CALLS calls).

A held graph is freed late, from cold memory, and each new one is built in memory the cache
lost: with 8 graphs of an unrolled LSTMCell (530 nodes each) held, 4.5 % of its loop. So
graphs are held while they add up to HELD_NODES nodes at most (counted by the node ids made
since the call before), the latest always: small graphs 8 calls back, large ones fewer.
"""
from __future__ import annotations

import sys
import threading
from collections import deque

import torch
import torch.autograd.graph as _graph

_next_id = torch._C._autograd._get_sequence_nr  # nodes made later get higher ids
# Not torch.compiler.disable: that imports torch._dynamo (about 1 s at %load_ext) and puts a
# frame of its own into every backward traceback. torch.compiler.is_compiling() in one call
# instead of two: dynamo traces is_dynamo_compiling() as True; run, is_compiling() is the flag.
_dynamo_compiling = torch.compiler.is_dynamo_compiling
_compiler = torch.compiler

from . import touch
from .frames import forget_frames, user_stack
from .graph import node_id
from .records import BackwardCall

HELD_ROOTS = 8
HELD_NODES = 1_000  # older graphs are let go past this many nodes held (about half a MiB)
MAX_CALLS = 2_000
FREED_CALLS = 16   # graph-freeing calls of earlier units whose freed node ids are kept
def root_nodes(t_outputs) -> list:
    """The graph roots of a backward call, counted by `touch` (none once its budget is spent)."""
    nodes = []
    for t in t_outputs if isinstance(t_outputs, (list, tuple)) else [t_outputs]:
        node = touch.node_of(t) if isinstance(t, torch.Tensor) else getattr(t, "node", None)
        if node is not None:
            nodes.append(node)
    return nodes


class BackwardRecorder:
    """One per process; `acquire`/`release` count users so nested users share one wrapper."""

    def __init__(self):
        self._users = 0
        self._original = None
        self._wrapper = None
        self._lock = threading.Lock()
        self.listeners: list = []  # called as f(call, roots) before the engine runs (call: as `raw` gives it)
        self.reset()

    # install / uninstall -------------------------------------------------------------
    def acquire(self) -> None:
        with self._lock:
            self._users += 1
            if self._users == 1:
                self._install()

    def release(self) -> None:
        with self._lock:
            self._users = max(0, self._users - 1)
            if self._users == 0:
                self._uninstall()
                self.reset()

    @property
    def installed(self) -> bool:
        return self._wrapper is not None

    def _install(self) -> None:
        original = _graph._engine_run_backward
        recorder = self

        def _engine_run_backward(t_outputs, *args, **kwargs):
            __tracebackhide__ = True  # IPython leaves our frames out of the user's traceback
            if _dynamo_compiling() or _compiler._is_compiling_flag:  # compiling: be torch's own function, nothing recorded
                return original(t_outputs, *args, **kwargs)
            try:
                roots, call = recorder._record(t_outputs, args, kwargs)
            except Exception:  # recording must never change what the user's code does
                roots = None
            if roots is None:
                return original(t_outputs, *args, **kwargs)
            try:
                result = original(t_outputs, *args, **kwargs)
            except BaseException:
                recorder.failing_index = call[0]
                raise
            if roots and not call[4]:  # it freed its graph
                recorder._hold(call, roots)
            return result

        self._original, self._wrapper = original, _engine_run_backward
        _graph._engine_run_backward = _engine_run_backward
        torch.autograd._engine_run_backward = _engine_run_backward

    def _uninstall(self) -> None:
        for module in (_graph, torch.autograd):
            if getattr(module, "_engine_run_backward", None) is self._wrapper:
                module._engine_run_backward = self._original
        self._original = self._wrapper = None

    # recording ---------------------------------------------------------------------
    def reset(self) -> None:
        """Forget everything (a script starts). Call indexes go on counting."""
        self._base: int = getattr(self, "_base", 0) + getattr(self, "_count", 0)
        self._count = 0
        self._calls: deque = deque(maxlen=MAX_CALLS)
        self._held: deque = deque(maxlen=HELD_ROOTS)  # (call index, root nodes, nodes made since the call before)
        self._held_nodes = 0
        self._freed: deque = deque(maxlen=FREED_CALLS)  # (call index, frozenset of node ids)
        self._stack_counts: dict = {}  # stack -> [that stack, calls from it so far]
        self.failing_index: int | None = None
        self.unit = 0
        forget_frames()
        self._last_id = _next_id()  # the next node id when the last graph-freeing call began

    def begin_unit(self, unit: int) -> None:
        """A cell starts: its calls are tagged `unit`; earlier units' calls are kept."""
        self.end_unit()
        self.unit = unit
        self.failing_index = None

    def end_unit(self) -> None:
        """A cell ended: keep which node ids each graph-freeing call freed, drop the nodes."""
        from .graph import ids_below

        forget_frames()
        held, self._held, self._held_nodes = list(self._held), deque(maxlen=HELD_ROOTS), 0
        budget = max(1, touch.room() // 8)
        for index, roots, _ in held:
            try:
                self._freed.append((index, frozenset(ids_below(roots, budget))))
            except Exception:
                pass
        held.clear()

    def _hold(self, call: tuple, roots: list) -> None:
        """Hold a graph-freeing call's roots; let the oldest go past HELD_ROOTS calls or HELD_NODES nodes."""
        held, next_id = self._held, call[6]
        if len(held) == held.maxlen:
            self._held_nodes -= held[0][2]  # appending lets it go
        size = max(1, next_id - self._last_id)
        self._last_id = next_id
        held.append((call[0], roots, size))
        self._held_nodes += size
        while self._held_nodes > HELD_NODES and len(held) > 1:
            self._held_nodes -= held.popleft()[2]

    def _record(self, t_outputs, args, kwargs):
        roots = root_nodes(t_outputs)
        create_graph = bool(args[2] if len(args) > 2 else kwargs.get("create_graph", False))
        retain = args[1] if len(args) > 1 else kwargs.get("keep_graph", None)
        retain = create_graph if retain is None else bool(retain)
        kind = "backward" if kwargs.get("accumulate_grad", True) else "grad"
        stack = user_stack(sys._getframe(2))
        counts = self._stack_counts
        entry = counts.get(stack)
        if entry is None:
            if len(counts) > MAX_CALLS:
                counts.clear()
            entry = counts[stack] = [stack, 0]
        stack, iteration = entry  # the stack's first tuple: one kept per stack, not one per call
        entry[1] = iteration + 1
        index = self._base + self._count
        self._count += 1
        call = (index, stack, iteration, kind, retain, tuple(map(node_id, roots)), _next_id(), self.unit)
        self._calls.append(call)
        for listener in list(self.listeners):
            try:
                listener(call, roots)
            except Exception:
                pass
        return roots, call

    # reading -----------------------------------------------------------------------
    def calls(self, filename: str | None = None, unit: int | None = None) -> tuple[BackwardCall, ...]:
        """The calls kept, with their user frames (`stack`) and the lines of `filename` on
        them (`stack_lines`, for code that reads one unit alone); only `unit`'s if given."""
        return tuple(BackwardCall(index=i, stack_lines=tuple(l for f, l in stack if filename is None or f == filename),
                                  iteration=it, kind=kind, retain_graph=retain, root_ids=ids, next_id=next_id,
                                  stack=stack, unit=u)
                     for i, stack, it, kind, retain, ids, next_id, u in self._calls if unit is None or u == unit)

    def raw(self, index: int) -> tuple | None:
        """(index, stack, iteration, kind, retain, root ids, next id, unit) of a kept call."""
        i = index - (self._base + self._count - len(self._calls))
        return self._calls[i] if 0 <= i < len(self._calls) else None

    def held_roots(self) -> list[tuple[int, list]]:
        """(call index, root nodes) of recent calls of this unit that freed their graph."""
        return [(index, roots) for index, roots, _ in self._held]

    def freed_ids(self) -> list[tuple[int, frozenset]]:
        """(call index, ids of the nodes it freed) for graph-freeing calls of earlier units."""
        return list(self._freed)


RECORDER = BackwardRecorder()
