"""Facts about the cell's code: the records code_reader.py fills from the syntax tree."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Loop:
    line: int
    end_line: int
    function: str | None  # the def it sits in, None at top level

    def contains(self, line: int) -> bool:
        return self.line <= line <= self.end_line


@dataclass(frozen=True)
class Function:
    name: str
    line: int
    end_line: int
    params: tuple[str, ...] = ()  # positional parameters, `self` included


@dataclass(frozen=True)
class Call:
    line: int
    func: str                  # dotted callee, e.g. "self.rnn", "torch.autograd.grad", ".backward"
    receiver: str | None       # for method calls: dotted object, e.g. "loss"
    arg_names: frozenset[str]  # dotted names read in the arguments
    keywords: tuple[tuple[str, str], ...] = ()
    no_grad: bool = False
    args: tuple[str | None, ...] = ()  # each positional argument's dotted name (None if not a name)


@dataclass(frozen=True)
class BackwardSite:
    line: int
    kind: str                  # "backward" | "grad"
    receiver: str              # source text of the tensor(s) backpropagated from
    names: frozenset[str]
    retain_graph: bool = False


@dataclass(frozen=True)
class Assign:
    line: int
    targets: tuple[str, ...]
    reads: frozenset[str]
    call: str | None = None          # dotted callee when the value is a call
    call_args: frozenset[str] = frozenset()
    accumulates: bool = False        # x += ..., x = x + ...
    detached: bool = False           # value ends in .detach() / .item() / ...
    no_grad: bool = False            # inside `with torch.no_grad()`
    augmented: bool = False


@dataclass(frozen=True)
class Store:
    """A value put into a container: lst.append(v), d[k] = v, bank.extend(v)."""

    line: int
    container: str
    method: str
    reads: frozenset[str]
    detached: bool = False
    value: str = ""  # source text of what is stored
    keyed: bool = False  # into an entry of the container (`history["loss"].append(v)`)


def item_kind(held: set[str], store: Store | None) -> str:
    """How the value a store puts holds its tensors, from how the runtime saw the container hold
    them (`held`, e.g. {"list>dict"}: `outputs.append(step)` stores a dict); without a store,
    how the name itself holds them. "" for a plain tensor, an unknown or a mixed kind."""
    if store is not None and store.method in ("append", "appendleft", "insert", "setitem"):
        held = {k.partition(">")[2] for k in held}
        if store.keyed:  # a list in a dict (`history["loss"]`): one level more around the item
            held = {k.partition(">")[2] for k in held}
    return next(iter(held)) if len(held) == 1 and not held & {"tensor", ""} else ""


@dataclass(frozen=True)
class CodeFacts:
    lines: tuple[str, ...]
    parsed: bool
    loops: tuple[Loop, ...] = ()
    functions: tuple[Function, ...] = ()
    calls: tuple[Call, ...] = ()
    backwards: tuple[BackwardSite, ...] = ()
    assigns: tuple[Assign, ...] = ()
    stores: tuple[Store, ...] = ()
    reads: tuple[tuple[str, int], ...] = field(default=())

    def line_text(self, line: int | None) -> str:
        return self.lines[line - 1].strip() if line and 0 < line <= len(self.lines) else ""

    def indent(self, line: int | None) -> int:
        """How far `line` is indented (0 for a line the code does not have)."""
        text = self.lines[line - 1] if line and 0 < line <= len(self.lines) else ""
        return len(text) - len(text.lstrip())

    def loops_at(self, line: int) -> tuple[Loop, ...]:
        """Enclosing loops, outermost first."""
        return tuple(l for l in self.loops if l.contains(line))

    def headers(self, line: int, stop: int = 0):
        """The block headers enclosing `line` (by indentation), innermost first, down to line
        `stop`: (line, stripped text) of each `with`, `if`, `for`, `def` ... that holds it."""
        indent = self.indent(line)
        for i in range(line - 2, max(stop, 1) - 2, -1):
            text, own = self.lines[i].strip(), self.indent(i + 1)
            if text and own < indent:
                yield i + 1, text
                indent = own

    def function_at(self, line: int) -> Function | None:
        """The innermost function whose body holds `line`."""
        return next((f for f in sorted(self.functions, key=lambda f: -f.line) if f.line < line <= f.end_line), None)

    def locals_of(self, function: Function, before: int | None = None) -> frozenset[str]:
        """Names `function` binds (its parameters and what its body assigns, up to `before`),
        `self` and `cls` excepted: a method's reads of `self.x` are the program's own."""
        last = function.end_line if before is None else before - 1
        bound = {t for a in self.assigns if function.line < a.line <= last for t in a.targets}
        return frozenset((bound | set(function.params)) - {"self", "cls"})

    def assigns_to(self, name: str) -> tuple[Assign, ...]:
        return tuple(a for a in self.assigns if name in a.targets)

    def read_lines(self, name: str) -> tuple[int, ...]:
        return tuple(line for n, line in self.reads if n == name)

    def loop_targets(self, loop: Loop) -> frozenset[str]:
        """The names the loop's header binds (`i` in `for i in range(n)`)."""
        return frozenset(t for a in self.assigns if a.line == loop.line for t in a.targets)

    def carried_in(self, loop: Loop, name: str) -> bool:
        """Assigned in the loop and read there at or before its first assignment."""
        inside = [a.line for a in self.assigns_to(name) if loop.contains(a.line)]
        reads = [r for r in self.read_lines(name) if loop.contains(r)]
        return bool(inside) and any(r <= min(inside) for r in reads)

    def set_up_only(self, line: int) -> bool:
        """In a constructor, or a helper only constructors call: run once, at set-up."""
        f = self.function_at(line)
        if f is None:
            return False
        if f.name == "__init__":
            return True
        sites = [c.line for c in self.calls if c.func == f.name or c.func.endswith("." + f.name)]
        return bool(sites) and all(getattr(self.function_at(s), "name", "") == "__init__" for s in sites)

    def attribute_writes(self, attr: str) -> tuple[int, ...]:
        """Lines of a module's methods that put a value with a graph into `self.attr` (an
        assignment, a named buffer), after set-up: where a cache or a statistic is kept."""
        lines = [s.line for s in self.stores if s.container == attr and not s.detached]
        lines += [a.line for a in self.assigns_to(attr) if not a.detached and not a.no_grad and a.reads]
        return tuple(sorted(l for l in set(lines) if self.function_at(l) is not None and not self.set_up_only(l)))
