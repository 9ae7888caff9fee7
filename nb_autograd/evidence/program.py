"""A notebook read as one program: the runs its history made (and user files on its stacks)
joined in run order, so rules written for one text see the loss made two cells above, the
function defined earlier, the helper in `trainlib.py`. A cell run again and again at the end
of the history becomes the body of a loop (`for _nb_autograd_rerun in range(k):`): re-running
a cell by hand is iterating it. Lines map back to places (In [n] / a file, and a line)."""
from __future__ import annotations

import ast
import builtins
import difflib
import os
from dataclasses import dataclass, replace

from ..capture.records import Capture, Frame, GraphNode, Place, Source
from ..capture.session import imported_names
from .cell_names import cell_contract, names_read
from .errors import read_errors

MARK = '"nb_autograd: piece {}"'  # a statement of its own: a moved line never takes it along
RERUN = "for _nb_autograd_rerun in range({}):"
INDENT = "    "
MAX_PIECES = 40
MAX_CALLS = 500
_BUILTIN_NAMES = frozenset(dir(builtins)) | {"torch", "nn", "F", "np"}  # read everywhere: say nothing


@dataclass(frozen=True)
class Piece:
    source: Source             # its last run
    units: tuple[int, ...]     # the runs it stands for (a file: ())
    first: int                 # program line of its first line
    indent: str = ""           # INDENT inside the re-run loop

    @property
    def size(self) -> int:
        return len(self.source.text.splitlines())

    def place(self, line: int | None = None) -> Place:
        s = self.source
        script = s.key if s.cell is None and s.file is None and not s.key.startswith("<") else None
        return Place(s.cell, s.cell_id, s.file or script, None if line is None else line - self.first + 1)


@dataclass(frozen=True)
class Program:
    text: str
    pieces: tuple[Piece, ...]
    failing: int               # index of the piece that raised

    def piece_at(self, line: int | None) -> Piece | None:
        return next((p for p in self.pieces if line is not None and p.first <= line < p.first + p.size), None)

    def place(self, line: int | None) -> Place | None:
        piece = self.piece_at(line)
        return piece.place(line) if piece else None

    def split(self, patched: str) -> dict[int, str] | None:
        """Piece index -> its new text, for the pieces `patched` changed; None if the marks
        were lost (the patch cannot be put back). Lines a fix put at the top of the re-run
        loop belong to the loop's first piece."""
        bodies: dict[int, list[str]] = {}
        current, pending = None, None
        for line in patched.splitlines():
            stripped = line.strip()
            if stripped.startswith('"nb_autograd: piece '):
                current = int(stripped.split()[-1].rstrip('"'))
                bodies[current] = pending or []
                pending = None
            elif _synthetic(line):
                pending = [] if stripped.startswith("for ") else pending
            elif pending is not None:
                pending.append(line)
            elif current is not None:
                bodies[current].append(line)
        if sorted(bodies) != list(range(len(self.pieces))):
            return None
        out = {}
        for i, body in bodies.items():
            piece = self.pieces[i]
            body = [l[len(piece.indent):] if l.startswith(piece.indent) else l.lstrip() for l in body]
            new = "\n".join(body).rstrip()
            if new != piece.source.text.rstrip():
                out[i] = restore_raw(piece.source, new)
        return out

    def target(self, parts: dict[int, str], root_line: int | None) -> int:
        """The piece a fix is for: the failing one if it changed, else the root's, else the
        one that gained most lines (a moved line lands there)."""
        root = next((i for i, p in enumerate(self.pieces) if p is self.piece_at(root_line)), None)
        if self.failing in parts:
            return self.failing
        if root in parts:
            return root
        def gained(i: int) -> int:
            return len(parts[i].splitlines()) - len(self.pieces[i].source.text.splitlines())
        return max(parts, key=lambda i: (gained(i), i))


def _synthetic(line: str) -> bool:
    s = line.strip()
    return s.startswith("for _nb_autograd_rerun in range(") or s == "pass  # nb_autograd"


def restore_raw(source: Source, new: str) -> str:
    """The patched cell as the user would type it: magics put back where IPython had
    transformed them (`%%gradwatch`, `%timeit`), lines the patch did not touch kept as typed."""
    if not source.raw or source.raw == source.text:
        return new
    raw = source.raw.splitlines()
    head = []
    if raw and raw[0].startswith("%%"):
        head, raw = raw[:1], raw[1:]
    old = source.text.splitlines()
    if len(raw) != len(old):
        return "\n".join(head + new.splitlines())
    out = []
    for tag, a, b, c, d in difflib.SequenceMatcher(None, old, new.splitlines(), autojunk=False).get_opcodes():
        out += raw[a:b] if tag == "equal" else new.splitlines()[c:d]
    return "\n".join(head + out)


class _Resolver:
    """(key, line) of a frame in a run -> the Source it came from."""

    def __init__(self, sources: tuple[Source, ...]):
        self.cells = [s for s in sources if s.file is None]
        self.files = {s.key: s for s in sources if s.file is not None}

    def source(self, key: str, unit: int) -> Source | None:
        found = None
        for s in self.cells:
            if s.key == key and s.unit <= unit:
                found = s
        return found or self.files.get(key)


def _tail_period(texts: list[str]) -> tuple[int, int]:
    """(period, repeats) of the longest repetition at the end of `texts` (1, 1 if none)."""
    for p in range(1, 5):
        k = 1
        while len(texts) >= p * (k + 1) and texts[-p * (k + 1):len(texts) - p * k] == texts[-p:]:
            k += 1
        if k > 1:
            return p, k
    return 1, 1


def build_program(capture: Capture, users: bool = True, writers: bool = False) -> Program | None:
    """The program behind a failure in a notebook, or None (a script, or nothing to join).
    `users`: also the runs that used (not only assigned) what the failing run reads.
    `writers`: also the runs between the first chosen one and the failure that write in place
    (an optimizer step in its own cell, run after the forward that saved the weights)."""
    failure = capture.failure
    if failure is None or not capture.sources:
        return None
    resolver = _Resolver(capture.sources)
    history = [s for s in resolver.cells if s.unit <= failure.unit]
    failing = next((s for s in history if s.unit == failure.unit), None)
    if failing is None or not failing.key:
        return None
    chosen: set[int] = {failing.unit}
    files: dict[str, Source] = {}
    freeing = {i for _, i in failure.freed_by}
    frames: list[tuple[Frame, int]] = [(f, failure.unit) for f in failure.stack]
    frames += [(f, c.unit) for c in capture.backwards if c.index in freeing or c.unit == failure.unit for f in c.stack]
    for frame, unit in frames:
        s = resolver.source(frame[0], unit)
        if s is not None and s.file is not None:
            files[s.key] = s
        elif s is not None:
            chosen.add(s.unit)
    # the runs that last assigned a name the chosen ones read, before them; and the runs that
    # used an object the failing run reads (`for p in net.parameters(): p.requires_grad = False`
    # changes `net` without assigning it)
    names = {s.unit: cell_contract(s.text) for s in history}
    used = names_read(failing.text)  # read, even when also assigned there (`model = train(model)`)
    if users:
        chosen |= {s.unit for s in history if s.unit < failing.unit and names_read(s.text) & used - _BUILTIN_NAMES}
    for _ in range(4):
        grown = set(chosen)
        for unit in chosen:
            for name in names[unit][1]:
                writer = max((u for u in names if u < unit and name in names[u][0]), default=None)
                if writer is not None:
                    grown.add(writer)
        if grown == chosen or len(grown) > MAX_PIECES:
            break
        chosen = grown
    if writers:
        start = min(chosen)
        chosen |= {s.unit for s in history if start < s.unit < failing.unit and read_errors(s.text).inplace}
    # the user's modules the chosen runs import (`from l2norm import L2Norm`): their code ran
    # as part of the program even when none of their frames is on a stack
    imports = {n.split(".")[0] for s in history if s.unit in chosen for n in imported_names(s.text)}
    for s in capture.sources:
        if s.file and s.key not in files and os.path.splitext(os.path.basename(s.file))[0] in imports:
            files[s.key] = s
    # earlier runs of a chosen cell's text count as iterations of it, unless they raised
    # before finishing (and freed nothing the failure needed)
    freeing_units = {c.unit for c in capture.backwards if c.index in freeing}
    texts = {h.text for h in history if h.unit in chosen}
    runs = [s for s in history if s.unit in chosen or (s.text in texts and (not s.raised or s.unit in freeing_units))]
    runs = runs[-MAX_PIECES:]
    if len(runs) == 1 and not files:
        return Program(failing.text, (Piece(failing, (failing.unit,), 1),), 0)
    return _assemble(tuple(files.values()), runs, failing)


def _assemble(files: tuple[Source, ...], runs: list[Source], failing: Source) -> Program | None:
    texts = [s.text for s in runs]
    period, repeats = _tail_period(texts)
    body_start = len(runs) - period * repeats if repeats > 1 else len(runs)
    groups: list[tuple[Source, tuple[int, ...], bool]] = [(s, (), False) for s in files]
    for s in runs[:body_start]:  # a setup cell run twice in a row is one piece
        if groups and not groups[-1][2] and groups[-1][1] and groups[-1][0].text == s.text:
            groups[-1] = (s, groups[-1][1] + (s.unit,), False)
        else:
            groups.append((s, (s.unit,), False))
    for j in range(period if repeats > 1 else 0):
        same = [runs[body_start + r * period + j] for r in range(repeats)]
        groups.append((same[-1], tuple(s.unit for s in same), True))
    lines: list[str] = []
    pieces: list[Piece] = []
    looping = False
    for i, (source, units, in_loop) in enumerate(groups):
        if in_loop and not looping:
            lines.append(RERUN.format(repeats))
            looping = True
        indent = INDENT if in_loop else ""
        lines.append(indent + MARK.format(i))
        pieces.append(Piece(source, units, len(lines) + 1, indent))
        lines += [indent + l if l.strip() else l for l in source.text.splitlines()] or [indent + "pass"]
    if looping:
        lines.append(INDENT + "pass  # nb_autograd")
    text = "\n".join(lines) + "\n"
    try:
        ast.parse(text)
    except SyntaxError:
        return None
    index = next((i for i, p in enumerate(pieces) if failing.unit in p.units), None)
    return None if index is None else Program(text, tuple(pieces), index)


def program_capture(capture: Capture, program: Program) -> Capture:
    """`capture` in the program's lines: stacks, node lines and iterations re-read."""
    resolver = _Resolver(capture.sources)
    by_unit = {u: p for p in program.pieces for u in p.units}
    by_key = {p.source.key: p for p in program.pieces if p.source.file is not None}

    def line_of(frame: Frame, unit: int) -> int | None:
        s = resolver.source(frame[0], unit)
        piece = None if s is None else (by_key.get(s.key) if s.file else by_unit.get(s.unit))
        return None if piece is None else piece.first + frame[1] - 1

    def lines_of(stack, unit) -> tuple[int, ...]:
        return tuple(n for n in (line_of(f, unit) for f in stack) if n is not None)

    failure = capture.failure
    counts: dict[tuple, int] = {}
    calls = []
    for c in capture.backwards[-MAX_CALLS:]:
        if c.unit > failure.unit:
            continue
        lines = lines_of(c.stack, c.unit)
        calls.append(replace(c, stack_lines=lines, iteration=counts.get(lines, 0)))
        counts[lines] = counts.get(lines, 0) + 1
    graph = failure.graph
    if graph is not None:
        key = program.pieces[program.failing].source.key

        def moved(n: GraphNode) -> GraphNode:
            return n if n.line is None else replace(n, line=line_of((n.source or key, n.line), failure.unit))
        graph = replace(graph, nodes=tuple(moved(n) for n in graph.nodes))
    name = "<nb_autograd program>"
    failure = replace(failure, stack_lines=lines_of(failure.stack, failure.unit), graph=graph,
                      no_grad_forwards=tuple((name, n) for n in lines_of(failure.no_grad_forwards, failure.unit)),
                      hook_code=tuple((name, n) for n in lines_of(failure.hook_code, failure.unit)))
    return replace(capture, source=program.text, filename=name, failure=failure,
                   backwards=tuple(calls))
