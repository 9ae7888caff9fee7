"""What rules may read, computed once from a Capture; building it never raises."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from ..capture.records import BackwardCall, Capture, Failure, Holder, Place
from .code import CodeFacts, Loop, item_kind  # noqa: F401  (item_kind: the rules' import)
from .code_reader import read_code
from .program import Program, build_program, program_capture
from .symptoms import Symptom, classify


@dataclass(frozen=True)
class Evidence:
    capture: Capture
    code: CodeFacts
    symptom: Symptom | None
    program: Program | None = None   # a notebook's runs joined; `capture` is in its lines

    @property
    def joined(self) -> bool:
        """The code read is more than the unit that ran (lines need a place to be told)."""
        return self.program is not None and len(self.program.pieces) > 1

    def place(self, line: int | None) -> Place:
        """Where a line of the code read is: a cell run or a file, and the line there."""
        if self.program is not None:
            found = self.program.place(line)
            if found is not None:
                return found
            return replace(self.program.pieces[self.program.failing].place(), line=None)
        name = self.capture.filename
        return Place(file=name if name and not name.startswith("<") else None, line=line)

    def unit_place(self, piece: int | None = None) -> Place:
        """The cell or file a whole piece is (default: the one that raised)."""
        if self.program is None:
            return replace(self.place(None), line=None)
        return self.program.pieces[self.program.failing if piece is None else piece].place()

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
    def scopes(self) -> tuple[tuple[int, int, str], ...]:
        """(first, last line, kind) around the failure: "loop" for loops on the failing stack,
        "call" for defs on it (their locals flow through arguments and returns), "def" for the
        other defs of the cell a loop may call (a forward(): only the attributes it keeps
        outlive the call). Constructors run once, so they are left out."""
        if not self.failure:
            return ()
        out: dict[tuple[int, int], str] = {}
        for line in self.failure.stack_lines:
            out.update({(l.line, l.end_line): "loop" for l in self.code.loops_at(line)})
        if not out:  # a framework's loop calls training_step: its body is the loop body
            out.update({scope: "loop" for scope in self._repeated_by_caller})
        if not out:
            return ()
        for f in self.code.functions:
            on_stack = any(f.line < line <= f.end_line for line in self.failure.stack_lines)
            if on_stack or f.name != "__init__":
                out.setdefault((f.line, f.end_line), "call" if on_stack else "def")
        return tuple(sorted((first, last, kind) for (first, last), kind in out.items()))

    @cached_property
    def _repeated_by_caller(self) -> tuple[tuple[int, int], ...]:
        """When an earlier backward ran from the same line and no loop of the user's is on
        the stack, a framework (Lightning, a trainer) is calling the user's code once per step:
        the innermost def on the failing stack, or, when the framework itself runs the backward
        (automatic optimisation), every method the user wrote except constructors."""
        lines = self.failure.stack_lines if self.failure else ()
        if not lines or not any(c.stack_lines[-1:] == lines[-1:] for c in self.earlier_calls):
            return ()
        defs = [f for f in self.code.functions if f.line < lines[-1] <= f.end_line]
        if defs:
            inner = max(defs, key=lambda f: f.line)
            return ((inner.line, inner.end_line),)
        return tuple((f.line, f.end_line) for f in self.code.functions if f.name != "__init__" and f.params[:1] == ("self",))

    def in_loop_scope(self, line: int, name: str | None = None) -> bool:
        """Inside a loop around the failure or a def it calls; in a def off the failing
        stack only an attribute (dotted `name`) outlives the call."""
        return any(a <= line <= b and (kind != "def" or name is None or "." in name) for a, b, kind in self.scopes)

    @cached_property
    def backward_site(self):
        """The backward / grad call written at the failing line, if the code shows one."""
        return next((b for b in self.code.backwards if self.line and b.line == self.line), None)

    def carried(self, name: str) -> bool:
        """Read before it is (re)assigned in a loop around the failure, or, for attributes and
        globals, in a function on the failing stack: its value crosses iterations."""
        for first, last, kind in self.scopes:
            if kind != "loop" and "." not in name and not self.declared_global(name, first, last):
                continue
            assigns = [a for a in self.code.assigns_to(name) if first < a.line <= last or (kind == "loop" and a.line == first)]
            inside = [a.line for a in assigns]
            reads = [r for r in self.code.read_lines(name) if first <= r <= last]
            always = [l for l in inside if not self.conditional(l, first)]  # `if done: h = zeros(...)` may not run
            if inside and any(r <= min(always or inside) for r in reads):
                return True
            # `loss, h = step(x, h)` written over several lines: the statement reads h before it rebinds it
            if inside and any(a.line == min(always or inside) and name in a.reads for a in assigns):
                return True
        return False

    def declared_global(self, name: str, first: int, last: int) -> bool:
        """`global loss` in the function between `first` and `last`: the name outlives each call."""
        return any(t.startswith("global ") and name in (n.strip() for n in t[7:].split(","))
                   for t in (self.code.line_text(l) for l in range(first, last + 1)))

    def conditional(self, line: int, first: int) -> bool:
        """`line` sits in an if/else or try block opened after `first` (by indentation)."""
        return any(text.startswith(("if ", "elif ", "else", "try", "except")) for _, text in self.code.headers(line, first))

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
        if self.failing_call is None:
            return self.capture.backwards
        return tuple(c for c in self.capture.backwards if c.index < self.failing_call.index)

    @cached_property
    def freeing_trains_only_shared(self) -> bool:
        """A call that freed part of the failing graph reached no leaf of its own outside that
        part (a runtime fact): its loss trains nothing but what the two losses share."""
        apart = dict(self.failure.leaves_apart) if self.failure else {}
        return any(apart.get(c.index) == 0 for c in self.freeing_calls)

    @cached_property
    def freeing_calls(self) -> tuple[BackwardCall, ...]:
        """Earlier calls that freed part of the failing graph, oldest first."""
        indexes = sorted({i for _, i in self.failure.freed_by}) if self.failure else []
        return tuple(c for c in self.capture.backwards if c.index in indexes)

    @cached_property
    def same_root_call(self) -> BackwardCall | None:
        """An earlier call that started from the very same root node(s): the first that freed
        the graph (one with retain_graph=True left it for the next), else the first."""
        roots = set(self.failure.root_ids) if self.failure else set()
        same = [c for c in self.earlier_calls if roots and roots <= set(c.root_ids)]
        return next((c for c in same if not c.retain_graph), same[0] if same else None)

    @cached_property
    def repeated_root_before_loop(self) -> tuple[str, int] | None:
        """The loop re-runs backward from a tensor made once before it: (name, line made)."""
        first, site, loop, call = self.same_root_call, self.backward_site, self.loop, self.failing_call
        if not (first and site and loop and call) or first.stack_lines != call.stack_lines:
            return None
        for name in sorted(site.names):
            assigns = self.code.assigns_to(name)
            before = [a.line for a in assigns if a.line < loop.line]
            if before and not any(loop.contains(a.line) for a in assigns):
                return name, max(before)
        return None

    @cached_property
    def steps_in_loop(self) -> bool:
        """An optimizer steps inside the failing loop (or in a method of the cell it may call):
        each iteration is its own update."""
        if self.loop is None:
            return False
        def inside(line: int) -> bool:
            return self.loop.contains(line) or any(a <= line <= b and kind != "loop" for a, b, kind in self.scopes)
        return any(c.func.endswith(".step") and "sched" not in c.func.lower() and inside(c.line) for c in self.code.calls)

    @property
    def freed_by_this_statement(self) -> bool:
        """The last call that freed the failing graph is the failing statement itself, run in
        an earlier iteration of its loop."""
        call = self.failing_call
        return bool(call and self.freeing_calls) and self.freeing_calls[-1].stack_lines == call.stack_lines

    @property
    def freed_by_grad_only(self) -> bool:
        """Every call that freed the reused part was autograd.grad (grad() then backward())."""
        return bool(self.freeing_calls) and all(c.kind == "grad" for c in self.freeing_calls)

    @cached_property
    def replayed_stores(self) -> tuple[tuple[str, int], ...]:
        """(container, line) of graph-attached tensors appended AFTER the failing backward in
        the same function or loop body (`self.fake_pool.append(fake)` at the end of a step) that
        reach the freed graph: the stale tensor was replayed from an earlier pass."""
        if self.line is None or not self.has_runtime_staleness:
            return ()
        body = [(a, b) for a, b, _ in self.scopes if a <= self.line <= b]
        if not body:
            return ()
        end = max(body)[1]  # the innermost scope holding the failing backward
        return tuple((s.container, s.line) for s in self.code.stores
                     if not s.detached and self.line < s.line <= end and s.method in ("append", "extend", "insert")
                     and self.reaches_stale(s.container))

    @cached_property
    def freed_in_same_pass(self) -> bool:
        """Two backward calls in one pass, not one call across iterations: the losses were both
        built before the freeing backward ran (`for l in losses: l.backward()`), or the freeing
        backward is another line that ran after this one's previous run (a GAN's D step)."""
        call = self.failing_call
        if call is None or not self.freeing_calls or self.replayed_stores:
            return False
        if self.failure.root_ids and max(self.failure.root_ids) < min(c.next_id for c in self.freeing_calls):
            return True
        previous = [c.index for c in self.earlier_calls if c.stack_lines == call.stack_lines]
        after = max(previous, default=-1)
        return all(c.index > after and c.stack_lines != call.stack_lines for c in self.freeing_calls)

    @property
    def holders(self) -> tuple[Holder, ...]:
        return self.failure.holders if self.failure else ()

    def holders_of(self, name: str) -> tuple[Holder, ...]:
        """Holders for a dotted name or its items (`temp` matches `temp[0]`); `self.x` in a
        method matches the attribute on whatever object the frames hold (`model.x`, `net.2.x`)."""
        def matches(path: str) -> bool:
            if path == name or path.startswith(name + "["):
                return True
            attr = name[5:]
            return name.startswith("self.") and "." in path and (
                path.endswith("." + attr) or ("." + attr + "[") in path)  # model.layer1.sn1.v
        return tuple(h for h in self.holders if matches(h.path))

    def item_containers(self, *names: str) -> set[str]:
        """The container kinds the runtime saw holding these names' tensors as items
        (`states[0]` in a list: "list"); empty when each is a plain tensor or was not seen."""
        return {h.container for n in names for h in self.holders_of(n) if "[" in h.path}

    def holder(self, name: str) -> Holder | None:
        return next(iter(self.holders_of(name)), None)

    def stale_holder(self, name: str) -> bool:
        return any(h.stale for h in self.holders_of(name))

    def reaches_stale(self, name: str) -> bool:
        return any(h.reaches_stale for h in self.holders_of(name))

    @property
    def has_runtime_staleness(self) -> bool:
        return bool(self.failure and self.failure.freed_by)


def build(capture: Capture) -> Evidence:
    failure = capture.failure
    symptom = classify(failure.error_type, failure.message) if failure else None
    if failure is None and capture.silent:  # the watcher saw problems though nothing raised
        symptom = Symptom("silent")
    # a freed graph is found by what assigned it; a cut or an in-place change may come from
    # any cell that used the object (`p.requires_grad = False` over `net.parameters()`)
    program = build_program(capture, users=symptom.id != "second_backward", writers=symptom.id == "inplace_modified") \
        if symptom is not None and symptom.id != "silent" else None
    if program is not None and len(program.pieces) > 1:
        capture = program_capture(capture, program)
    return Evidence(capture=capture, code=read_code(capture.source), symptom=symptom, program=program)
