"""Session memory: which code ran, in which order, as plain records (the last MAX_UNITS runs).

A unit is one run of a cell (or of a script). The IPython layer, `%%gradwatch` and
`run_source` all go through `begin` / `describe` / `end`, so the later stages can read a
notebook as the one program its history makes: a re-run is a second unit with the same
text, a function defined earlier is found under the key its code objects carry.
"""
from __future__ import annotations

import ast
import os
import sys
from collections import deque
from dataclasses import replace

from .backwards import RECORDER
from .frames import is_user_file
from .records import Capture, Source

MAX_UNITS = 100
MAX_FILE_BYTES = 200_000


class Session:
    def __init__(self):
        self.units: deque[Source] = deque(maxlen=MAX_UNITS)
        self.count = 0

    def begin(self, cell_id: str | None = None, raw: str | None = None) -> int:
        """A unit starts; its key and text come later (`describe`), once compiled."""
        self.count += 1
        self.units.append(Source(key="", text="", cell_id=cell_id, raw=raw, unit=self.count))
        RECORDER.begin_unit(self.count)
        return self.count

    def describe(self, key: str, text: str, cell: int | None = None, unit: int | None = None) -> None:
        """Name the unit (default: the current one) by the key its code carries."""
        unit = self.count if unit is None else unit
        for i, source in enumerate(self.units):
            if source.unit == unit:
                if not source.key or source.key == key:
                    self.units[i] = replace(source, key=key, text=text, cell=cell if cell is not None else source.cell)
                return

    def end(self, raised: bool = False) -> None:
        if raised and self.units and self.units[-1].unit == self.count:
            self.units[-1] = replace(self.units[-1], raised=True)
        RECORDER.end_unit()

    def clear(self) -> None:
        self.units.clear()

    def with_program(self, capture: Capture) -> Capture:
        """`capture` with the session's runs, the user files on its stacks and the calls kept,
        for reading the notebook as one program."""
        cells = tuple(s for s in self.units if s.key)
        keys = {s.key for s in cells}
        stacks = [capture.failure.stack] if capture.failure else []
        stacks += [c.stack for c in RECORDER.calls()]
        frames = [f for stack in stacks for f in inner_frames(stack, keys)]
        frames += [(path, 0) for path in imported_files(cells)]
        files = user_files(frames, skip=keys)
        return replace(capture, sources=files + cells, backwards=RECORDER.calls(capture.filename))


def inner_frames(stack, keys) -> tuple:
    """The frames from the first one in `keys` (a cell, the script) inwards: the ones outside
    it are its caller's (a test runner, a tool), not the user's program."""
    names = [k for k, _ in stack]
    first = next((i for i, k in enumerate(names) if k in keys), None)
    return () if first is None else tuple(stack[first:])


def imported_names(text: str) -> list[str]:
    """The modules a cell imports by absolute name (`import a.b`, `from trainlib import train`)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    names = []
    for node in ast.walk(tree):
        names += [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
    return names


def imported_files(cells) -> list[str]:
    """The user's own modules the cells import (`from trainlib import train`): their code
    runs as part of the notebook even when no frame of theirs is on a stack."""
    out = []
    for source in cells:
        for name in imported_names(source.text):
            path = getattr(sys.modules.get(name), "__file__", None)
            if path and is_user_file(path):
                out.append(path)
    return out


def user_files(frames, skip=frozenset()) -> tuple[Source, ...]:
    """The user's own files (not cells, not libraries) that `frames` ran in, as Sources."""
    out = []
    for key in dict.fromkeys(k for k, _ in frames):
        if key not in skip and is_user_file(key) and os.path.isfile(key):
            try:
                if os.path.getsize(key) <= MAX_FILE_BYTES:
                    with open(key, encoding="utf-8") as f:
                        out.append(Source(key=key, text=f.read(), file=key))
            except (OSError, UnicodeDecodeError):
                pass
    return tuple(out)


SESSION = Session()
