"""Which frames are the user's, and their lines: the frames above a module frame are read once
and kept until the unit ends, and the answer is always the one a plain walk gives."""
from __future__ import annotations

import os

from nb_autograd.capture import frames
from nb_autograd.capture.frames import forget_frames, frame_line, is_user_file, user_stack

CELL = """\
import sys
def plain(frame):
    out = []
    while frame is not None:
        if is_user_file(frame.f_code.co_filename):
            out.append((frame.f_code.co_filename, frame.f_lineno))
        frame = frame.f_back
    return tuple(reversed(out))
def inner():
    frame = sys._getframe(0)
    return user_stack(frame), plain(frame)
def outer(k):
    return [inner() for _ in range(k)]
first = outer(3)
second = [inner()]
"""


def test_library_and_package_files_are_not_the_users():
    assert not is_user_file(os.__file__)
    assert not is_user_file(frames.__file__)
    assert not is_user_file("<frozen importlib._bootstrap>")
    assert is_user_file("<ipython-input-3-abc>") and is_user_file("/home/me/train.py")


def test_the_kept_frames_give_what_a_plain_walk_gives():
    forget_frames()
    namespace = {"user_stack": user_stack, "is_user_file": is_user_file}
    exec(compile(CELL, "/home/me/cell.py", "exec"), namespace)
    pairs = namespace["first"] + namespace["second"]
    assert all(kept == walked for kept, walked in pairs)
    lines = [[line for f, line in kept if f == "/home/me/cell.py"] for kept, _ in pairs]
    assert all(ls[0] == 14 and ls[-2:] == [13, 11] for ls in lines[:3])  # (3.11: the comprehension's frame too)
    assert lines[-1] == [15, 11]
    assert frames._ABOVE[0] is not None  # the module frame, kept while the unit runs
    forget_frames()
    assert frames._ABOVE == [None, ()]


def test_frame_line_matches_f_lineno_past_a_long_code_start():
    source = "x = 0\n" * 300 + "import sys\nf = sys._getframe(0)\nline = frame_line(f)\n"
    namespace = {"frame_line": frame_line}
    exec(compile(source, "/home/me/long.py", "exec"), namespace)
    assert namespace["line"] == namespace["f"].f_lineno == 303


def test_released_locals_keep_no_value_alive_and_leave_the_variables():
    import sys
    import weakref

    import torch

    from nb_autograd.capture.frames import release_locals

    def step():
        loss = torch.ones(2, requires_grad=True).sum()
        frame = sys._getframe()
        assert "loss" in frame.f_locals  # the snapshot now holds `loss`
        release_locals(frame)
        ref = weakref.ref(loss)
        del loss  # the frame's own variable gone: only a snapshot could keep it
        alive = ref() is not None
        kept = 41
        release_locals(frame)
        return alive, kept + 1

    assert step() == (False, 42)
