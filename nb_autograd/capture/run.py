"""Run a source text the way a notebook cell runs, and capture what happened."""
from __future__ import annotations

import linecache

from .backwards import RECORDER
from .failure import read_failure
from .records import Capture, Source
from .session import inner_frames, user_files


def register_source(filename: str, source: str) -> None:
    """Make tracebacks and our line lookups see `source` under `filename`."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def run_source(source: str, filename: str = "<nb_autograd>", watch: bool = True) -> Capture:
    """Compile and execute `source` in a fresh `__main__`-like namespace.

    A SyntaxError is raised to the caller (it is bad input, not a diagnosis).
    """
    code = compile(source, filename, "exec")
    register_source(filename, source)
    namespace = {"__name__": "__main__", "__file__": filename, "__builtins__": __builtins__}
    watcher = None
    if watch:
        from .watch import Watcher
        watcher = Watcher(filename, top_code=code)
    RECORDER.acquire()
    RECORDER.reset()
    failure = None
    try:
        if watcher is not None:
            watcher.start()
        try:
            exec(code, namespace)
        except Exception as exc:  # the user's error is the subject, not ours
            origin = watcher.origin if watcher is not None else None
            failure = read_failure(exc, exc.__traceback__, filename, source, RECORDER, origin)
            exc.__traceback__ = None
            del exc
        finally:
            if watcher is not None:
                watcher.stop()
        calls = RECORDER.calls(filename)
        silent = watcher.silent_findings(calls, namespace) if watcher is not None and failure is None else ()
    finally:
        RECORDER.reset()
        RECORDER.release()
        namespace.clear()
    stacks = [failure.stack] if failure else []
    stacks += [c.stack for c in calls]
    frames = [f for stack in stacks for f in inner_frames(stack, {filename})]
    sources = user_files(frames, skip={filename}) + (Source(key=filename, text=source),)
    return Capture(source=source, filename=filename, failure=failure, backwards=calls,
                   watched=watcher is not None, silent=silent, sources=sources)
