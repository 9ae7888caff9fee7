"""The one seam where the user's code runs under capture: a notebook cell (the exception
hook), `%%gradwatch`, a script (`diagnose`, the CLI) and a `with nb_autograd.watch():` block
all end in a `Capture` made here, in one vocabulary."""
from __future__ import annotations

import linecache

import torch

from .backwards import RECORDER
from .failure import read_failure
from .marks import compile_unit
from .records import Capture, Source
from .session import SESSION, imported_files, inner_frames, user_files
from .watch import Watcher


def native_traceback(tb, start: str | None = None):
    """The traceback as it would be without us. Left out: the recorder's frames; under the
    watcher, the frames our TorchFunctionMode adds (torch's dispatch into it and ours); for a
    watched cell, everything before the cell's own code (the magic machinery); and with
    `start` (a script's filename) the runner's frames above the script's first one."""
    import os
    import types

    ours = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the nb_autograd package
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    name = lambda t: t.tb_frame.f_code.co_filename  # noqa: E731
    mine = lambda t: os.path.abspath(name(t)).startswith(ours + os.sep)  # noqa: E731
    watched = [i for i, t in enumerate(frames) if mine(t) and t.tb_frame.f_code.co_name == "run_watched"]
    if watched:
        frames = frames[watched[-1] + 1:]
    if start is not None:
        first = next((i for i, t in enumerate(frames) if name(t) == start), 0)
        frames = frames[first:]
    keep = [True] * len(frames)
    for i, t in enumerate(frames):
        if mine(t):
            keep[i] = False
            dispatch = i - 1  # torch.overrides.handle_torch_function, then the Tensor method that called it
            if dispatch >= 0 and frames[dispatch].tb_frame.f_code.co_name == "handle_torch_function":
                keep[dispatch] = False
                if dispatch >= 1 and "torch" in name(frames[dispatch - 1]):
                    keep[dispatch - 1] = False
    out = None
    for t, kept in reversed(list(zip(frames, keep))):
        if kept:
            out = types.TracebackType(out, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return out


def register_source(filename: str, source: str) -> None:
    """Make tracebacks and our line lookups see `source` under `filename`."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def failure_capture(exc: BaseException, tb, filename: str, source: str, *, origin=None, made_at=None,
                    watched: bool = False, in_session: bool = True) -> Capture:
    """An error raised by the unit `filename` (`source`), read while `tb` is alive."""
    names = source + "".join(s.text for s in SESSION.units) if in_session else source  # names that may hold tensors
    failure = read_failure(exc, tb, filename, names, RECORDER, origin, made_at)
    return _placed(Capture(source=source, filename=filename, failure=failure, watched=watched), in_session)


def _placed(capture: Capture, in_session: bool) -> Capture:
    """With the program around it: the session's runs (a notebook), or the script and the
    user files on its stacks."""
    if in_session:
        return SESSION.with_program(capture)
    calls = RECORDER.calls(capture.filename)
    stacks = ([capture.failure.stack] if capture.failure else []) + [c.stack for c in calls]
    frames = [f for stack in stacks for f in inner_frames(stack, {capture.filename})]
    unit = Source(key=capture.filename, text=capture.source)
    frames += [(path, 0) for path in imported_files([unit])]  # its own modules ran too, on a stack or not
    sources = user_files(frames, skip={capture.filename}) + (unit,)
    return Capture(source=capture.source, filename=capture.filename, failure=capture.failure, backwards=calls,
                   watched=capture.watched, silent=capture.silent, sources=sources)


class Run:
    """`with Run(...) as run: exec(...)`; afterwards `run.capture` says what happened (the
    exception still propagates). Outside a notebook session (`in_session=False`) the recorder
    is taken and reset for the run alone; `close()` gives it back."""

    def __init__(self, filename: str, source: str, namespace: dict | None = None, *, watch: bool = True,
                 top_code=None, in_session: bool = False):
        self.filename, self.source, self.namespace, self.in_session = filename, source, namespace, in_session
        self.watcher = Watcher(filename, top_code=top_code) if watch else None
        self.capture: Capture | None = None

    def __enter__(self) -> "Run":
        if not self.in_session:
            RECORDER.acquire()
            RECORDER.reset()
        if self.watcher is not None:
            self.watcher.start()
        return self

    def __exit__(self, etype, value, tb) -> bool:
        watcher = self.watcher
        if watcher is not None:
            watcher.stop()
        origin = watcher.origin if watcher is not None else None
        if isinstance(value, Exception):
            self.capture = failure_capture(value, tb, self.filename, self.source, origin=origin,
                                           made_at=watcher.made_at if watcher is not None else None,
                                           watched=watcher is not None, in_session=self.in_session)
        elif value is None:
            calls = RECORDER.calls(self.filename, unit=SESSION.count if self.in_session else None)
            silent = watcher.silent_findings(calls, self.namespace) if watcher is not None else ()
            capture = Capture(source=self.source, filename=self.filename, failure=None, backwards=calls,
                              watched=watcher is not None, silent=silent)
            self.capture = capture if self.in_session else _placed(capture, False)
        self.namespace = value = tb = None
        return False

    def close(self) -> None:
        if not self.in_session:
            RECORDER.reset()
            RECORDER.release()


def run_source(source: str, filename: str = "<nb_autograd>", watch: bool = True) -> Capture:
    """Compile and execute `source` in a fresh `__main__`-like namespace.

    A SyntaxError is raised to the caller (it is bad input, not a diagnosis).
    """
    code = compile_unit(source, filename, marked=watch)
    register_source(filename, source)
    namespace = {"__name__": "__main__", "__file__": filename, "__builtins__": __builtins__}
    run = Run(filename, source, namespace, watch=watch, top_code=code)
    grad_mode = torch.is_grad_enabled()
    try:
        with run:
            exec(code, namespace)
    except Exception:  # the user's error is the subject: it is in run.capture
        pass
    finally:
        run.close()
        namespace.clear()
        torch.set_grad_enabled(grad_mode)  # a script's `torch.set_grad_enabled(False)` ends with it
    return run.capture
