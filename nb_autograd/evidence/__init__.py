"""What rules may read, computed once from a Capture; building it never raises."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..capture.records import BackwardCall, Capture, Failure, Holder
from .code import CodeFacts, Loop, read_code
from .symptoms import Symptom, classify


@dataclass(frozen=True)
class Evidence:
    capture: Capture
    code: CodeFacts
    symptom: Symptom | None

    @property
    def failure(self) -> Failure | None:
        return self.capture.failure

    @property
    def line(self) -> int | None:
        """The innermost line of the cell on the failing stack."""
        return self.failure.line if self.failure else None

    @cached_property
    def loop(self) -> Loop | None:
        """The innermost loop around the failing call (through calls into the cell's functions)."""
        if not self.failure:
            return None
        for line in reversed(self.failure.stack_lines):
            loops = self.code.loops_at(line)
            if loops:
                return loops[-1]
        return None

    @cached_property
    def scopes(self) -> tuple[tuple[int, int, bool], ...]:
        """(first, last line, is_function) of each loop and def around the failing stack."""
        if not self.failure:
            return ()
        out = set()
        for line in self.failure.stack_lines:
            out.update((l.line, l.end_line, False) for l in self.code.loops_at(line))
            out.update((f.line, f.end_line, True) for f in self.code.functions if f.line < line <= f.end_line)
        return tuple(sorted(out))

    def in_loop_scope(self, line: int) -> bool:
        return any(a <= line <= b for a, b, _ in self.scopes)

    @cached_property
    def backward_site(self):
        """The backward / grad call written at the failing line, if the code shows one."""
        return next((b for b in self.code.backwards if self.line and b.line == self.line), None)

    def carried(self, name: str) -> bool:
        """Read before it is (re)assigned in a loop around the failure, or, for attributes and
        globals, in a function on the failing stack: its value crosses iterations."""
        for first, last, is_function in self.scopes:
            if is_function and "." not in name:
                continue
            inside = [a.line for a in self.code.assigns_to(name) if first < a.line <= last or (not is_function and a.line == first)]
            reads = [r for r in self.code.read_lines(name) if first <= r <= last]
            if inside and any(r <= min(inside) for r in reads):
                return True
        return False

    @cached_property
    def failing_call(self) -> BackwardCall | None:
        """The engine call that raised: the last one whose roots are the failing roots."""
        roots = set(self.failure.root_ids) if self.failure else set()
        for call in reversed(self.capture.backwards):
            if roots and set(call.root_ids) == roots:
                return call
        return None

    @property
    def earlier_calls(self) -> tuple[BackwardCall, ...]:
        cut = self.failing_call.index if self.failing_call else len(self.capture.backwards)
        return self.capture.backwards[:cut]

    @cached_property
    def freeing_calls(self) -> tuple[BackwardCall, ...]:
        """Earlier calls that freed part of the failing graph, oldest first."""
        indexes = sorted({i for _, i in self.failure.freed_by}) if self.failure else []
        return tuple(c for c in self.capture.backwards if c.index in indexes)

    @cached_property
    def same_root_call(self) -> BackwardCall | None:
        """An earlier call that started from the very same root node(s)."""
        roots = set(self.failure.root_ids) if self.failure else set()
        return next((c for c in self.earlier_calls if roots and roots <= set(c.root_ids)), None)

    @cached_property
    def freed_in_same_pass(self) -> bool:
        """The freeing backward ran after this backward's previous run (or it has none) and
        from another line: two backward calls in one pass, not one call across iterations."""
        call = self.failing_call
        if call is None or not self.freeing_calls:
            return False
        previous = [c.index for c in self.earlier_calls if c.stack_lines == call.stack_lines]
        after = max(previous, default=-1)
        return all(c.index > after and c.stack_lines != call.stack_lines for c in self.freeing_calls)

    @property
    def holders(self) -> tuple[Holder, ...]:
        return self.failure.holders if self.failure else ()

    def holder(self, name: str) -> Holder | None:
        """The holder for a dotted name or any item of it (`temp` matches `temp[0]`)."""
        return next((h for h in self.holders if h.path == name or h.path.startswith(name + "[")), None)

    def stale_holder(self, name: str) -> bool:
        return any(h.stale for h in self.holders if h.path == name or h.path.startswith(name + "["))

    def reaches_stale(self, name: str) -> bool:
        return any(h.reaches_stale for h in self.holders if h.path == name or h.path.startswith(name + "["))

    @property
    def has_runtime_staleness(self) -> bool:
        return bool(self.failure and self.failure.freed_by)

    def stale_lines(self) -> tuple[int, ...]:
        """Cell lines that created the stale nodes (only known under the watcher)."""
        graph = self.failure.graph if self.failure else None
        if graph is None:
            return ()
        stale = set(graph.stale)
        return tuple(sorted({n.line for n in graph.nodes if n.id in stale and n.line}))


def build(capture: Capture) -> Evidence:
    failure = capture.failure
    symptom = classify(failure.error_type, failure.message) if failure else None
    return Evidence(capture=capture, code=read_code(capture.source), symptom=symptom)
