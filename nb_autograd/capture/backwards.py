"""Sees every call into the autograd engine, with the user's line, by wrapping
`_engine_run_backward` (Tensor.backward, autograd.backward and autograd.grad all end there).

Holds the root nodes of the last few graph-freeing calls while a unit (a cell, a script)
runs, so a later failure can intersect graphs and name the backward that freed the reused
part; `end_unit()` turns them into the ids of the nodes they freed and drops them, so across
cells only integers and strings are kept (the last MAX_CALLS calls).
"""
from __future__ import annotations

import os
import sys
import sysconfig
import threading
from collections import deque
from functools import lru_cache

import torch
import torch.autograd.graph as _graph

_next_id = torch._C._autograd._get_sequence_nr  # nodes made later get higher ids
# Not torch.compiler.disable: that imports torch._dynamo (about 1 s at %load_ext) and puts a
# frame of its own into every backward traceback.
_is_compiling = torch.compiler.is_compiling

from . import touch
from .graph import node_id
from .records import BackwardCall

HELD_ROOTS = 8
MAX_CALLS = 2_000
FREED_CALLS = 16   # graph-freeing calls of earlier units whose freed node ids are kept
_LIBRARY_DIRS = tuple({os.path.realpath(p) + os.sep for p in (
    sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), os.path.dirname(torch.__file__))})


@lru_cache(maxsize=4096)  # realpath per frame per backward was most of the recorder's cost
def is_user_file(filename: str) -> bool:
    """Cells and user scripts, not torch, IPython, the stdlib or this package."""
    if filename.startswith("<frozen") or filename.startswith("<string"):
        return False
    return not os.path.realpath(filename).startswith(_LIBRARY_DIRS) if os.path.isabs(filename) else True


_LINES: dict = {}  # (id(code), f_lasti) -> (code, line); the code kept so that its id stays its own


def frame_line(frame) -> int:
    """`frame.f_lineno`, remembered per code object and instruction: f_lineno reads the code's
    line table from its start up to the instruction, long in a cell's or a script's module
    code, and the frames around a training loop are read on every backward and every step.
    (Near the start of a code object the table is read: that is cheaper than remembering.)"""
    lasti = frame.f_lasti
    if lasti < 256:
        return frame.f_lineno
    code = frame.f_code
    key = (id(code), lasti)
    known = _LINES.get(key)
    if known is not None and known[0] is code:
        return known[1]
    if len(_LINES) > 20_000:
        _LINES.clear()
    line = frame.f_lineno
    _LINES[key] = (code, line)
    return line


def user_stack(frame) -> tuple[tuple[str, int], ...]:
    """(filename, line) of user frames from `frame` outwards, outermost first."""
    out = []
    while frame is not None:
        name = frame.f_code.co_filename
        if is_user_file(name):
            out.append((name, frame_line(frame)))
        frame = frame.f_back
    return tuple(reversed(out))


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
            if _is_compiling():  # dynamo is tracing: be torch's own function, nothing recorded
                return original(t_outputs, *args, **kwargs)
            try:
                roots, index, retain = recorder._record(t_outputs, args, kwargs)
            except Exception:  # recording must never change what the user's code does
                roots = None
            if roots is None:
                return original(t_outputs, *args, **kwargs)
            try:
                result = original(t_outputs, *args, **kwargs)
            except BaseException:
                recorder.failing_index = index
                raise
            if not retain and roots:
                recorder._held.append((index, roots))
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
        self._held: deque = deque(maxlen=HELD_ROOTS)
        self._freed: deque = deque(maxlen=FREED_CALLS)  # (call index, frozenset of node ids)
        self._stack_counts: dict = {}  # stack -> [that stack, calls from it so far]
        self.failing_index: int | None = None
        self.unit = 0

    def begin_unit(self, unit: int) -> None:
        """A cell starts: its calls are tagged `unit`; earlier units' calls are kept."""
        self.end_unit()
        self.unit = unit
        self.failing_index = None

    def end_unit(self) -> None:
        """A cell ended: keep which node ids each graph-freeing call freed, drop the nodes."""
        from .graph import ids_below

        held, self._held = list(self._held), deque(maxlen=HELD_ROOTS)
        budget = max(1, touch.room() // 8)
        for index, roots in held:
            try:
                self._freed.append((index, frozenset(ids_below(roots, budget))))
            except Exception:
                pass
        held.clear()

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
        return roots, index, retain

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
        return list(self._held)

    def freed_ids(self) -> list[tuple[int, frozenset]]:
        """(call index, ids of the nodes it freed) for graph-freeing calls of earlier units."""
        return list(self._freed)


RECORDER = BackwardRecorder()
