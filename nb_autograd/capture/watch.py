"""`%%gradwatch` and `nb_autograd.watch()`: record, while a cell runs, which cell line and
iteration created each autograd node (a TorchFunctionMode noting the sequence-number range
each op created) and the backward calls. Nothing is kept but ints."""
from __future__ import annotations

import sys
from bisect import bisect_left

import torch
from torch.overrides import TorchFunctionMode

from .backwards import RECORDER

_next_seq = torch._C._autograd._get_sequence_nr


class _ProvenanceMode(TorchFunctionMode):
    """After each torch call, note (highest sequence number so far, line, iteration)."""

    def __init__(self, watcher: "Watcher"):
        super().__init__()
        self.watcher = watcher

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if torch.compiler.is_compiling():
            return func(*args, **(kwargs or {}))
        before = _next_seq()
        result = func(*args, **(kwargs or {}))
        after = _next_seq()
        if after != before:
            self.watcher._note(after - 1, sys._getframe(1))
        return result


class Watcher:
    """Start/stop around a cell; `origin(node_id)` answers (line, iteration) or (None, None)."""

    def __init__(self, filename: str):
        self.filename = filename
        self._ends: list[int] = []      # highest sequence number of each recorded op
        self._origins: list[tuple[int, int]] = []
        self._line_runs: dict[int, int] = {}
        self._last: tuple[int, int] | None = None  # (line, lasti) of the last top-level op
        self._mode: _ProvenanceMode | None = None

    def start(self) -> None:
        self._mode = _ProvenanceMode(self)
        self._mode.__enter__()

    def stop(self) -> None:
        """Idempotent; safe after an exception or KeyboardInterrupt."""
        mode, self._mode = self._mode, None
        if mode is not None:
            mode.__exit__(None, None, None)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def _note(self, last_seq: int, frame) -> None:
        inner = outer = None
        while frame is not None:
            if frame.f_code.co_filename == self.filename:
                if inner is None:
                    inner = frame.f_lineno
                outer = frame
            frame = frame.f_back
        if inner is None:
            return
        key = (outer.f_lineno, outer.f_lasti)
        if self._last is None or key[0] != self._last[0] or key[1] <= self._last[1]:
            self._line_runs[key[0]] = self._line_runs.get(key[0], 0) + 1
        self._last = key
        self._ends.append(last_seq)
        self._origins.append((inner, self._line_runs[key[0]] - 1))

    def origin(self, node_id: int) -> tuple[int | None, int | None]:
        if node_id < 0 or not self._ends:
            return None, None
        i = bisect_left(self._ends, node_id)
        return self._origins[i] if i < len(self._ends) else (None, None)

    def silent_findings(self, calls) -> tuple:
        """Family-C observations (filled in by the silent-problem recorder)."""
        return ()
