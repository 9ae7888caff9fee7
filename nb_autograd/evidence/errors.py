"""Code facts the family-B rules need that CodeFacts does not keep: in-place writes, graph
cuts, frozen parameters, device moves. Read with `ast` from the cell; never raises."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache

from .syntax import dotted
from .cuts import DETACHING, NO_GRAD_MODES, NON_DIFFERENTIABLE

_NOT_INPLACE = {"requires_grad_", "share_memory_", "zero_grad", "set_grad_enabled", "retain_grad",
                "manual_seed", "add_module", "register_buffer", "apply_"}
FACTORIES = {"randn", "rand", "zeros", "ones", "empty", "full", "tensor", "arange", "linspace",
              "randint", "eye", "zeros_like", "ones_like", "randn_like", "rand_like", "normal", "as_tensor",
              "empty_like", "full_like"}
_REBUILD = {"tensor", "from_numpy", "as_tensor", "Tensor", "FloatTensor", "array", "asarray"}


@dataclass(frozen=True)
class InplaceOp:
    """A write into an existing tensor: `x += 1`, `x.add_(1)`, `x[0] = 1`, `relu(inplace=True)`,
    `opt.step()` (writes into the parameters)."""

    line: int
    kind: str        # augassign | method | inplace_kw | setitem | step | functional
    target: str      # dotted name written into ("" when unknown)
    text: str        # the operation as written, for the messages
    function: str | None = None


@dataclass(frozen=True)
class Cut:
    """An expression that leaves the graph: `.detach()`, `.item()`, `torch.tensor(...)`, ..."""

    line: int
    kind: str        # detach | item | numpy | tolist | rebuild | indices
    text: str


@dataclass(frozen=True)
class ErrorFacts:
    inplace: tuple[InplaceOp, ...] = ()
    cuts: tuple[Cut, ...] = ()
    freezes: tuple[tuple[int, str], ...] = ()      # (line, what was frozen)
    leaves: tuple[tuple[int, str, bool], ...] = ()  # (line, name, requires_grad given) for factory calls
    grad_reads: frozenset[str] = frozenset()        # names whose .grad is read or given to an optimizer
    moves: tuple[tuple[int, str, str, bool], ...] = ()  # (line, name, device text, result kept)
    returns: tuple[tuple[str, int, frozenset], ...] = ()  # (function, line, names returned)
    decorated_no_grad: tuple[tuple[str, int], ...] = ()    # (function, decorator line)
    twin_freezes: tuple[int, ...] = ()  # lines of `else:` freezes that repeat their `if:` branch's (a typo)
    discarded_detaches: tuple[tuple[int, str], ...] = ()  # (line, receiver) of `h.detach()` as a statement

    def inplace_before(self, line: int) -> tuple[InplaceOp, ...]:
        return tuple(op for op in self.inplace if op.line < line or op.function)

    def filling(self, name: str) -> tuple[int, ...]:
        """Lines that write values into the tensor `name` in place (`buf.scatter_add_(0, i, v)`,
        `buf[k] = v`, `buf += v`), not those that only reset it (`buf.zero_()`, `buf.fill_(0)`)."""
        return tuple(op.line for op in self.inplace if op.target == name and op.kind != "step" and not (
            op.kind == "method" and op.text.partition(name + ".")[2].split("(")[0] in _RESETS))


_RESETS = frozenset({"zero_", "fill_", "detach_", "requires_grad_", "normal_", "uniform_", "resize_"})


def _call_name(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        return dotted(node.func) or (node.func.attr if isinstance(node.func, ast.Attribute) else "")
    return ""


def _is_true(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _literal(args: list[ast.AST]) -> bool:
    """`torch.tensor([[2.0], [-1.0]])` makes a constant: nothing there was ever in a graph."""
    try:
        return bool(args) and all(ast.literal_eval(a) is not None for a in args)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return False


def _device_of(call: ast.Call) -> str | None:
    """`.to(device)`, `.cuda()`, `.cpu()` -> the device expression as written."""
    attr = call.func.attr if isinstance(call.func, ast.Attribute) else ""
    if attr == "cuda":
        return "cuda"
    if attr == "cpu":
        return "cpu"
    if attr == "to" and call.args:
        arg = call.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) or _call_name(arg).endswith("device") \
                or (isinstance(arg, ast.Name) and "device" in arg.id.lower()) or dotted(arg) and "device" in dotted(arg):
            return ast.unparse(arg)
    kw = {k.arg: k.value for k in call.keywords}
    if "device" in kw:
        return ast.unparse(kw["device"])
    return None


_OPTIMIZER = re.compile(r"(^|\.)(optim\.\w+|SGD|Adam|AdamW|RMSprop|Adagrad|Adadelta|Adamax|NAdam|RAdam|LBFGS)$")
_PLAIN = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
_PLAIN_CALLS = {"dict", "list", "set", "OrderedDict", "collections.OrderedDict", "defaultdict", "collections.defaultdict"}


class _Reader(ast.NodeVisitor):
    def __init__(self):
        self.inplace, self.cuts, self.freezes, self.leaves, self.moves = [], [], [], [], []
        self.grad_reads, self.returns, self.decorated, self.twins, self.discarded = set(), [], [], [], []
        self.function = None
        self.plain: set = set()  # (function, name) bound to a dict, list or set: `kwargs['x'] = 3` writes no tensor
        self.optimizers: set = set()  # names bound to an optimizer (`od = torch.optim.Adam(...)`), whatever they are called

    def read(self, tree: ast.AST) -> None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and _OPTIMIZER.search(_call_name(node.value)):
                self.optimizers |= {dotted(t) for t in node.targets if dotted(t)}
        self.visit(tree)

    def visit_If(self, node):
        """`if c: p.requires_grad = False` / `else: p.requires_grad = False`: both branches do
        the same, so the test decides nothing; the else branch is the one meant otherwise."""
        def freezes(body):
            return {ast.unparse(s): s.lineno for s in body if isinstance(s, ast.Assign) and
                    any(isinstance(t, ast.Attribute) and t.attr == "requires_grad" for t in s.targets)}
        mine, other = freezes(node.body), freezes(node.orelse)
        self.twins += [line for text, line in other.items() if text in mine]
        self.generic_visit(node)

    def visit_FunctionDef(self, node):
        for d in node.decorator_list:
            if (dotted(d.func if isinstance(d, ast.Call) else d) or "").rpartition(".")[2] in NO_GRAD_MODES:
                self.decorated.append((node.name, d.lineno))
        saved, self.function = self.function, node.name
        self.generic_visit(node)
        self.function = saved

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Return(self, node):
        if node.value is not None and self.function:
            from .syntax import names_read
            self.returns.append((self.function, node.lineno, names_read(node.value)))
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        target = dotted(node.target) or ""
        if not isinstance(node.target, ast.Subscript):
            self.inplace.append(InplaceOp(node.lineno, "augassign", target, ast.unparse(node).strip(), self.function))
        else:
            self.inplace.append(InplaceOp(node.lineno, "setitem", target, ast.unparse(node).strip(), self.function))
        self.generic_visit(node)

    def visit_Assign(self, node):
        if isinstance(node.value, _PLAIN) or isinstance(node.value, ast.Call) and _call_name(node.value) in _PLAIN_CALLS:
            self.plain.update((self.function, n.id) for n in node.targets if isinstance(n, ast.Name))
        for t in node.targets:
            if isinstance(t, ast.Subscript) and dotted(t.value) and (self.function, dotted(t.value)) not in self.plain:
                self.inplace.append(InplaceOp(node.lineno, "setitem", dotted(t.value), ast.unparse(node).strip(), self.function))
            if isinstance(t, ast.Attribute) and t.attr == "requires_grad" and isinstance(node.value, ast.Constant) \
                    and node.value.value is False:
                self.freezes.append((node.lineno, dotted(t.value) or ""))
        value, names = node.value, [dotted(t) for t in node.targets if dotted(t)]
        made = [c for c in ast.walk(value) if isinstance(c, ast.Call) and _call_name(c).rpartition(".")[2] in FACTORIES]
        if made and names:  # `w = torch.randn(3, 1)`, also scaled: `w = torch.randn(3, 1) * 0.1`
            given = any(_is_true(k.value) for c in made for k in c.keywords if k.arg == "requires_grad") \
                or any(_call_name(c).endswith("requires_grad_") for c in ast.walk(value) if isinstance(c, ast.Call))
            self.leaves.append((node.lineno, names[0], given))
        if isinstance(value, ast.Call) and names and _device_of(value):
            self.moves.append((node.lineno, names[0], _device_of(value), True))
        self.generic_visit(node)

    def visit_Expr(self, node):
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "detach" \
                and not call.args:  # its result, the detached tensor, is thrown away
            self.discarded.append((node.lineno, dotted(call.func.value) or ""))
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and _device_of(call):
            self.moves.append((node.lineno, dotted(call.func.value) or "", _device_of(call), False))
        self.generic_visit(node)

    def visit_Attribute(self, node):
        if node.attr == "grad" and dotted(node.value):
            self.grad_reads.add(dotted(node.value))
        self.generic_visit(node)

    def visit_Call(self, node):
        name = _call_name(node)
        last = name.rpartition(".")[2]
        receiver = dotted(node.func.value) if isinstance(node.func, ast.Attribute) else None
        text = ast.unparse(node)
        kw = {k.arg: k.value for k in node.keywords}
        if _is_true(kw.get("inplace")):
            self.inplace.append(InplaceOp(node.lineno, "inplace_kw", dotted(node.args[0]) if node.args else "", text, self.function))
        elif last == "step" and receiver and (receiver in self.optimizers or any(
                word in receiver.lower() for word in ("opt", "sgd", "adam"))):
            self.inplace.append(InplaceOp(node.lineno, "step", receiver, text, self.function))
        elif last.endswith("_") and not last.endswith("__") and last not in _NOT_INPLACE:
            if receiver and receiver.split(".")[0] not in {"torch", "F", "nn", "init"}:
                self.inplace.append(InplaceOp(node.lineno, "method", receiver, text, self.function))
            elif node.args:
                self.inplace.append(InplaceOp(node.lineno, "functional", dotted(node.args[0]) or "", text, self.function))
        if last == "requires_grad_" and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value is False:
            self.freezes.append((node.lineno, receiver or ""))
        if last in DETACHING and isinstance(node.func, ast.Attribute):
            self.cuts.append(Cut(node.lineno, last.rstrip("_"), text))
        elif last in _REBUILD and name.partition(".")[0] in {"torch", "np", "numpy"} and not _literal(node.args):
            self.cuts.append(Cut(node.lineno, "rebuild", text))
        elif last in NON_DIFFERENTIABLE and not node.args[1:] and (isinstance(node.func, ast.Attribute) or name.startswith("torch.")):
            self.cuts.append(Cut(node.lineno, "indices", text))
        if "optim" in name or last in {"SGD", "Adam", "AdamW", "RMSprop"}:
            for arg in node.args[:1]:
                for sub in ast.walk(arg):
                    if isinstance(sub, (ast.Name, ast.Attribute)) and dotted(sub):
                        self.grad_reads.add(dotted(sub))
        self.generic_visit(node)


@lru_cache(maxsize=32)
def read_errors(source: str) -> ErrorFacts:
    try:
        tree = ast.parse(source)
        reader = _Reader()
        reader.read(tree)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ErrorFacts()
    return ErrorFacts(tuple(reader.inplace), tuple(reader.cuts), tuple(reader.freezes), tuple(reader.leaves),
                      frozenset(reader.grad_reads), tuple(reader.moves), tuple(reader.returns), tuple(reader.decorated),
                      tuple(reader.twins), tuple(reader.discarded))
