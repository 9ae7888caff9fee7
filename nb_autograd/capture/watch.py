"""`%%gradwatch` and `nb_autograd.watch()`: record, while a cell runs, which cell line and
iteration created each autograd node, a size snapshot of the graph before each backward, and
optimizer step / zero_grad calls. After `stop()` nothing is kept but ints and file names.

Two recorders answer the same questions. Code we compiled (a `%%gradwatch` cell, a script run
by `python -m nb_autograd`) reports each statement it starts (`marks.py`): no per-op cost.
Code compiled by somebody else (`with nb_autograd.watch():` in a script), or `--ops`, gets a
TorchFunctionMode noting the sequence-number range each op created: it also names the line
inside an imported user module, at a per-op Python cost."""
from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right

import torch

from . import marks
from .backwards import RECORDER
from .frames import frame_line, is_user_file
from .holders import scan_holders
from .ops_mode import ProvenanceMode, pop_to
from .optimizer_hooks import OptimizerHooks
from .silent import Timeline

_next_seq = torch._C._autograd._get_sequence_nr
_get_ident = threading.get_ident


class Watcher:
    """Start/stop around a cell; `origin(node_id)` answers (line, iteration) or (None, None).

    The iteration of an op is how many times its stack of cell lines ran before (the same
    count `BackwardCall.iteration` uses), so a module forward defined in the cell or a helper
    called from a loop numbers its nodes by the loop's iteration. `ops`: None chooses the
    statement marks when `top_code` has them, else the per-op mode."""

    def __init__(self, filename: str, top_code=None, ops: bool | None = None):
        self.filename = filename
        self.top_code = top_code       # stop the frame walk here (the cell's own code object)
        self.ops = not marks.is_marked(top_code) if ops is None else ops
        # per op (ops) or per statement that made nodes (marks), four slots in `_recs`: its
        # sequence number, cell line, iteration and the innermost user frame's (file, line) or
        # None; (ops) the lowest number in `_firsts`. Ops: the highest number the op made; marks:
        # the statement's first number. A flat list, not a tuple per record: a watched loop keeps
        # one record per statement that made nodes, and tuples kept are what the cyclic GC counts
        # and walks. A record goes in with one `+=`, so an interrupt leaves none half-written.
        self._recs: list = []
        self._firsts: list[int] = []
        self._seqs: tuple[int, list[int]] = (0, [])  # (len(_recs), the sequence numbers), read lazily
        self._places: dict[tuple[str, int], tuple[str, int]] = {}  # one tuple kept per place, not per op
        self._runs: dict[tuple, list] = {}  # ops: cell-line stack -> [runs, lasti, child frame]
        self._counts: dict = {}             # marks: cell line (or stack of lines) -> runs
        self._last_key: tuple = ()
        self._outer: tuple | None = None    # marks: (caller frame, its f_lasti, its cell lines, user frame), see _key
        self._fn = None                     # marks: the cell function frame _outer was last read for
        self._mode: ProvenanceMode | None = None
        self.thread = None
        self.timeline = Timeline(filename, self.origin, top_code)
        self._hooks = OptimizerHooks(self.timeline, self._suspend, self._resume) if self.ops else OptimizerHooks(self.timeline)
        self._listening = False

    # install / uninstall -------------------------------------------------------------
    def start(self) -> None:
        try:
            RECORDER.acquire()
            self._listening = True
            RECORDER.listeners.append(self.timeline.before_backward)
            self._hooks.install()
            self.thread = threading.get_ident()
            if self.ops:
                self._mode = ProvenanceMode(self)
                self._mode.__enter__()
            else:
                marks.listen(self)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Idempotent; removes everything start() installed, even after an exception or a
        KeyboardInterrupt, and drops every frame it held."""
        mode, self._mode = self._mode, None
        if mode is not None:
            pop_to(mode)
        self._outer = self._fn = None
        if not self.ops and self.thread is not None:
            marks.unlisten(self)
            self._push(_next_seq(), None, None, None)  # nodes made after the cell have no origin
            self.thread = None
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
    def _stack(self, frame) -> tuple[list[int], tuple[str, int] | None, object, int]:
        """From `frame` outwards: the cell lines (innermost first), the innermost user frame
        inside them when it is not the cell's own, the frame below the innermost cell frame
        and that cell frame's f_lasti."""
        filename, top = self.filename, self.top_code
        lines, child, lasti, prev, inner = [], None, -1, None, None
        while frame is not None:
            code = frame.f_code
            if code.co_filename == filename:
                if not lines:
                    child, lasti = prev, frame.f_lasti
                lines.append(frame_line(frame))
                if code is top:
                    break
            elif inner is None and not lines and is_user_file(code.co_filename):  # by name: a code object's hash is slow
                inner = (code.co_filename, frame_line(frame))  # a helper or module of the user's, inside the cell's line
            prev, frame = frame, frame.f_back
        return lines, inner, child, lasti

    def on_statement(self, frame, starts: bool, line: int | None = None) -> None:
        """Marks: a statement of instrumented code starts (`starts`) at `line` of `frame`, or
        a call returned into `frame`. A statement of the watched unit starts one more run of
        its stack of lines."""
        if _get_ident() != self.thread:
            return
        seq = _next_seq()
        counts = self._counts  # runs of the key before this one (0 when first seen)
        if frame.f_code is self.top_code:  # most statements: the cell's own, no walk (its line is the key)
            if line is None:
                line = frame_line(frame)
            if self._outer is not None:
                self._outer = self._fn = None
            inner = None
            runs = counts[line] = counts.get(line, -1) + 1 if starts else counts.setdefault(line, 0)
        elif frame is self._fn and starts and line is not None:  # that cell function's next statement: its callers stand still
            key, inner = (line,) + self._outer[2], None
            runs = counts[key] = counts.get(key, -1) + 1
        else:
            key, line, inner = self._key(frame, starts, line)
            if key is None:
                return
            runs = counts[key] = counts.get(key, -1) + 1 if starts and inner is None else counts.setdefault(key, 0)
        recs = self._recs  # self._push, inline: this runs once per statement
        if recs and recs[-4] == seq:
            recs[-3:] = line, runs, inner
        else:
            recs += seq, line, runs, inner

    def _key(self, frame, starts: bool, line: int | None) -> tuple:
        """(stack of cell lines innermost first, the innermost, the innermost user frame inside
        it) for a statement outside the unit's own code. A cell function's callers stand still
        while it runs: what they give (their cell lines, the user frame inside them) is read
        once, at its first statement, keyed by its caller frame and the instruction that caller
        is at, and serves its other statements and its return. The caller frame is let go when
        the function returns, at the unit's next own statement and at stop(): nothing outlives
        the call it belongs to."""
        outer, back = self._outer, frame.f_back
        if starts and back is not None and frame.f_code.co_filename == self.filename:  # a cell function
            if outer is None or outer[0] is not back or outer[1] != back.f_lasti:
                outer = self._outer = (back, back.f_lasti) + self._lines(back)
            self._fn = frame
            line = frame_line(frame) if line is None else line
            return (line,) + outer[2], line, None
        if not starts and outer is not None and outer[0] is frame:  # that function returns
            self._outer = self._fn = None
            if outer[1] == frame.f_lasti:
                lines, inner = outer[2:]
                return (lines, lines[0], inner) if lines else (None, None, None)
        lines, inner = self._lines(frame)
        return (lines, lines[0], inner) if lines else (None, None, None)

    def _lines(self, frame) -> tuple[tuple[int, ...], tuple[str, int] | None]:
        """The cell lines from `frame` outwards (innermost first) and the user frame inside them."""
        lines, inner, _, _ = self._stack(frame)
        return tuple(lines), None if inner is None else self._places.setdefault(inner, inner)

    def _push(self, seq: int, line, iteration, inner) -> None:
        """A statement's record; the one before it, if it made no node, gives way."""
        recs = self._recs
        if recs and recs[-4] == seq:
            recs[-3:] = line, iteration, inner
        else:
            recs += seq, line, iteration, inner

    def _note(self, first_seq: int, last_seq: int, frame) -> None:
        """Ops: one torch call made nodes `first_seq`..`last_seq`."""
        lines, inner, child, lasti = self._stack(frame)
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
        del self._firsts[len(self._recs) // 4:]  # one an interrupt left without its record
        self._firsts.append(first_seq)
        self._recs += last_seq, lines[0], run[0], None if inner is None else self._places.setdefault(inner, inner)

    def _record(self, node_id: int) -> int | None:
        """The index of the record of the op (or statement) that created node `node_id`, if any."""
        if node_id < 0:
            return None
        recs = self._recs
        n, seqs = self._seqs
        if n != len(recs):
            self._seqs = n, seqs = len(recs), recs[0::4]
        if self.ops:
            i = bisect_left(seqs, node_id)
            return i if i < len(seqs) and self._firsts[i] <= node_id else None
        i = bisect_right(seqs, node_id) - 1
        return i if i >= 0 and recs[4 * i + 1] is not None else None

    def origin(self, node_id: int) -> tuple[int | None, int | None]:
        """(cell line, iteration) of the op that created node `node_id`, if recorded."""
        i = self._record(node_id)
        return (self._recs[4 * i + 1], self._recs[4 * i + 2]) if i is not None else (None, None)

    def made_at(self, node_id: int) -> tuple[str, int] | None:
        """The innermost user (file, line) that made node `node_id`, when it is not the watched
        cell's own line: a function in a user module (ops) or an earlier watched cell; else None."""
        i = self._record(node_id)
        return self._recs[4 * i + 3] if i is not None else None

    def silent_findings(self, calls=(), namespace: dict | None = None) -> tuple:
        """Family-C observations; `namespace` (the cell's globals at its end) names holders.
        Call after stop(), before the namespace is dropped."""
        found = list(self.timeline.findings(calls))
        kept = scan_holders(namespace, self.timeline.idents, self.origin, self.timeline.ranges) \
            if namespace is not None else []
        kept += [k for path, k in self.timeline.sampled.items() if all(path != h.path for h in kept)]
        return tuple(found + sorted(kept, key=lambda k: -k.nodes))
