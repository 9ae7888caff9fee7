"""Where the user's code is on the stack: which files are the user's, and the (file, line)
of their frames, read on every backward call and every optimizer step of a watched loop."""
from __future__ import annotations

import inspect
import os
import sys
import sysconfig
from functools import lru_cache

import torch

_LIBRARY_DIRS = tuple({os.path.realpath(p) + os.sep for p in (
    sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), os.path.dirname(torch.__file__))})


@lru_cache(maxsize=4096)  # realpath per frame per backward was most of the recorder's cost
def is_user_file(filename: str) -> bool:
    """Cells and user scripts, not torch, IPython, the stdlib or this package."""
    if filename.startswith("<frozen") or filename.startswith("<string"):
        return False
    return not os.path.realpath(filename).startswith(_LIBRARY_DIRS) if os.path.isabs(filename) else True


def release_locals(frame) -> None:
    """Empty the snapshot `frame.f_locals` left in a function's frame (before Python 3.13): it
    kept the values it read, a step's loss and its graph, alive until the next reading or the
    function's return, and freeing them then cost the next sample about 0.15 ms on an LSTMCell
    loop. The frame's variables are not touched (its fast locals are what the code reads)."""
    if sys.version_info < (3, 13) and frame.f_code.co_flags & inspect.CO_OPTIMIZED:
        frame.f_locals.clear()


_LINES: dict = {}  # id(code) << 32 | f_lasti -> line
_CODES: dict = {}  # id(code) -> code: kept, so that an id in _LINES stays its code's


def frame_line(frame) -> int:
    """`frame.f_lineno`, remembered per code object and instruction: f_lineno reads the code's
    line table from its start up to the instruction, long in a cell's or a script's module
    code, and the frames around a training loop are read on every backward and every step.
    (Near the start of a code object the table is read: that is cheaper than remembering.)"""
    lasti = frame.f_lasti
    if lasti < 256:
        return frame.f_lineno
    code = frame.f_code
    key = id(code) << 32 | lasti
    line = _LINES.get(key)
    if line is not None:
        return line
    if len(_LINES) > 20_000:
        _LINES.clear()
        _CODES.clear()
    _CODES[id(code)] = code
    line = _LINES[key] = frame.f_lineno
    return line


_ABOVE: list = [None, ()]  # [a module's frame, the user frames above it], see user_stack


def user_stack(frame) -> tuple[tuple[str, int], ...]:
    """(filename, line) of user frames from `frame` outwards, outermost first. The frames above
    a cell's or a script's module frame (IPython's: twenty-odd) stay put while it runs, so they
    are read once and kept with that frame until the next one or the unit's end (`forget_frames`)."""
    out = []
    start, (anchor, above) = frame, _ABOVE
    while frame is not None:
        code = frame.f_code
        name = code.co_filename
        if is_user_file(name):
            lasti = frame.f_lasti  # frame_line(frame), inline: this runs per user frame per backward
            line = frame.f_lineno if lasti < 256 else _LINES.get(id(code) << 32 | lasti) or frame_line(frame)
            out.append((name, line))
            if frame is anchor:
                out.reverse()
                return above + tuple(out)
        frame = frame.f_back
    out.reverse()
    frame = start
    while frame is not None and (frame.f_code.co_name != "<module>" or not is_user_file(frame.f_code.co_filename)):
        frame = frame.f_back
    if frame is not None:  # the innermost user module frame: keep what is above it for the next calls
        above, f = 0, frame.f_back
        while f is not None:
            above += is_user_file(f.f_code.co_filename)
            f = f.f_back
        _ABOVE[:] = frame, tuple(out[:above])
    return tuple(out)


def forget_frames() -> None:
    """Let go of the module frame user_stack keeps (a unit ended or the recorder was reset)."""
    _ABOVE[:] = None, ()
