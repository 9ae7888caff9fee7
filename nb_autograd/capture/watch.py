"""`%%gradwatch` and `nb_autograd.watch()`: record, while a cell runs, which cell line and
iteration created each autograd node (a TorchFunctionMode noting the sequence-number range
each op created), a size snapshot of the graph before each backward, and optimizer
step / zero_grad calls. After `stop()` nothing is kept but ints and file names."""
from __future__ import annotations

import sys
from bisect import bisect_left

import torch
from torch.overrides import TorchFunctionMode

from .backwards import RECORDER, is_user_file
from .silent import OptimizerHooks, Timeline, scan_holders, source_names

_next_seq = torch._C._autograd._get_sequence_nr
_is_compiling = torch.compiler.is_compiling
_ZERO = torch.Tensor.zero_
# Property reads/writes (`p.grad`, `.data`, `.shape`: most calls in an optimizer step) make no
# graph node: return before any bookkeeping. (`.T`, `.real` do make nodes: not listed.)
_WRAPPER = type(torch.Tensor.grad.__get__)
_QUIET = frozenset(getattr(torch._C.TensorBase, name) for name in (
    "size", "dim", "numel", "stride", "is_contiguous", "item", "tolist", "data_ptr", "element_size",
    "nelement", "get_device", "is_floating_point", "storage_offset", "__len__", "__bool__") if hasattr(torch._C.TensorBase, name))
_PLAIN = frozenset(("grad", "data", "shape", "requires_grad", "grad_fn", "is_leaf", "device", "dtype",
                    "_version", "names", "layout", "ndim", "is_cuda", "_base", "output_nr"))


class _ProvenanceMode(TorchFunctionMode):
    """After each torch call, note (sequence-number range it created, line, iteration)."""

    def __init__(self, watcher: "Watcher"):
        super().__init__()
        self.watcher = watcher

    def __torch_function__(self, func, types, args=(), kwargs=None):
        try:
            quiet = _SKIP[func]
        except (KeyError, TypeError):
            quiet = _quiet(func)
        if quiet or _is_compiling():  # compiling: untraceable code gave wrong results
            return func(*args, **kwargs) if kwargs else func(*args)
        if func is _ZERO:
            self.watcher.timeline.zeroed()
        before = _next_seq()
        result = func(*args, **kwargs) if kwargs else func(*args)
        after = _next_seq()
        if after != before:
            self.watcher._note(before, after - 1, sys._getframe(1))
        return result


def _quiet(func) -> bool:
    """Whether `func` makes no graph node; remembered per torch function (a fixed set)."""
    try:
        quiet = func in _QUIET or (type(func) is _WRAPPER and getattr(func.__self__, "__name__", None) in _PLAIN)
        _SKIP[func] = quiet
        return quiet
    except TypeError:  # unhashable: asked again each time
        return type(func) is _WRAPPER and getattr(func.__self__, "__name__", None) in _PLAIN


_SKIP: dict = {}  # func -> makes no graph node (one dict lookup per op instead of two tests)
_USER: dict = {}  # code object -> whether it is the user's (not torch, the stdlib, this package)


def _user(code) -> bool:
    try:
        return _USER[code]
    except KeyError:
        if len(_USER) > 50_000:  # generated code: keep the cache bounded
            _USER.clear()
        _USER[code] = found = is_user_file(code.co_filename)
        return found


class Watcher:
    """Start/stop around a cell; `origin(node_id)` answers (line, iteration) or (None, None).

    The iteration of an op is how many times its stack of cell lines ran before (the same
    count `BackwardCall.iteration` uses), so a module forward defined in the cell or a helper
    called from a loop numbers its nodes by the loop's iteration."""

    def __init__(self, filename: str, top_code=None):
        self.filename = filename
        self.top_code = top_code       # stop the frame walk here (the cell's own code object)
        # per recorded op: (highest, lowest sequence number it made, line, iteration, the
        # innermost user frame's (file, line) or None); one append per op, so an interrupt
        # between two statements cannot misalign anything
        self._records: list[tuple[int, int, int, int, tuple[str, int] | None]] = []
        self._places: dict[tuple[str, int], tuple[str, int]] = {}  # one tuple kept per place, not per op
        self._runs: dict[tuple, list] = {}  # cell-line stack -> [runs, lasti, child frame]
        self._last_key: tuple = ()
        self._mode: _ProvenanceMode | None = None
        self.timeline = Timeline(filename, self.origin, top_code)
        self._hooks = OptimizerHooks(self.timeline, self._suspend, self._resume)
        self._listening = False

    # install / uninstall -------------------------------------------------------------
    def start(self) -> None:
        try:
            RECORDER.acquire()
            self._listening = True
            RECORDER.listeners.append(self.timeline.before_backward)
            self._hooks.install()
            self._mode = _ProvenanceMode(self)
            self._mode.__enter__()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Idempotent; removes everything start() installed, even after an exception or a
        KeyboardInterrupt, and drops every frame it held."""
        mode, self._mode = self._mode, None
        if mode is not None:
            _pop_to(mode)
        self._hooks.uninstall()
        if self._listening:
            self._listening = False
            while self.timeline.before_backward in RECORDER.listeners:
                RECORDER.listeners.remove(self.timeline.before_backward)
            RECORDER.release()
        self._runs = {key: [run[0], -1, None] for key, run in self._runs.items()}  # drop frames
        self.timeline.close()

    def _suspend(self) -> bool:
        """Take the mode off the top of the stack for a moment (False if it is not on top)."""
        n = torch._C._len_torch_function_stack()
        if self._mode is not None and n and torch._C._get_function_stack_at(n - 1) is self._mode:
            torch._C._pop_torch_function_stack()
            return True
        return False

    def _resume(self) -> None:
        if self._mode is not None:
            torch._C._push_on_torch_function_stack(self._mode)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    # recording -----------------------------------------------------------------------
    def _note(self, first_seq: int, last_seq: int, frame) -> None:
        filename, top = self.filename, self.top_code
        lines, child, lasti, prev, inner = [], None, -1, None, None
        while frame is not None:
            code = frame.f_code
            if code.co_filename == filename:
                if not lines:
                    child, lasti = prev, frame.f_lasti
                lines.append(frame.f_lineno)
                if code is top:
                    break
            elif inner is None and not lines and _user(code):
                inner = (code.co_filename, frame.f_lineno)  # a helper or module of the user's, inside the cell's line
            prev, frame = frame, frame.f_back
        if not lines:
            return
        key, last = tuple(reversed(lines)), self._last_key  # outermost first
        run = self._runs.get(key)
        if run is None:
            run = self._runs[key] = [0, lasti, child]
        elif (key != last and key[:len(last)] != last and last[:len(key)] != key) or lasti < run[1] \
                or (lasti == run[1] and (child is None or child is not run[2])):
            run[0] += 1  # other lines ran since, the line started over, or a new call/direct op
        run[1], run[2] = lasti, child
        self._last_key = key
        self._records.append((last_seq, first_seq, lines[0], run[0],
                              None if inner is None else self._places.setdefault(inner, inner)))

    def _record(self, node_id: int) -> tuple | None:
        """The record of the op that created node `node_id`, if any."""
        if node_id < 0:
            return None
        records = self._records
        i = bisect_left(records, (node_id,))
        return records[i] if i < len(records) and records[i][1] <= node_id else None

    def origin(self, node_id: int) -> tuple[int | None, int | None]:
        """(cell line, iteration) of the op that created node `node_id`, if recorded."""
        record = self._record(node_id)
        return (record[2], record[3]) if record else (None, None)

    def made_at(self, node_id: int) -> tuple[str, int] | None:
        """The innermost user (file, line) that made node `node_id`, when it is not the watched
        cell's own line (a function in a user module or an earlier cell); else None."""
        record = self._record(node_id)
        return record[4] if record else None

    def silent_findings(self, calls=(), namespace: dict | None = None) -> tuple:
        """Family-C observations; `namespace` (the cell's globals at its end) names holders.
        Call after stop(), before the namespace is dropped."""
        found = list(self.timeline.findings(calls))
        kept = scan_holders(namespace, source_names(self.filename), self.origin, self.timeline.ranges) \
            if namespace is not None else []
        kept += [k for path, k in self.timeline.sampled.items() if all(path != h.path for h in kept)]
        return tuple(found + sorted(kept, key=lambda k: -k.nodes))


def _pop_to(mode) -> None:
    """Pop the torch-function mode stack down to and including `mode` (modes left above it
    by code interrupted inside its own `with`), so torch is as it was before start()."""
    stack = [torch._C._get_function_stack_at(i) for i in range(torch._C._len_torch_function_stack())]
    if any(m is mode for m in stack):
        while torch._C._len_torch_function_stack() and torch._C._pop_torch_function_stack() is not mode:
            pass
