"""Read the cell's code once with `ast` into CodeFacts (positions and structure are all the
rules need; LibCST is kept for the fixes, where formatting must survive)."""
from __future__ import annotations

import ast
import re

from .code import Assign, BackwardSite, Call, CodeFacts, Function, Loop, Store
from .cuts import NO_GRAD_MODES
from .named_stores import named_store
from .syntax import add_operands, const_text, dotted, is_detached, keyed, names_read, short_text, target_names, unmoved


# Frameworks' backward entry points take the loss as their first argument.
_RUNS_BACKWARD = re.compile(r"(^|\.)(manual_backward|(accelerator|fabric|engine|model_engine|strategy|precision)\.backward)$")


class _Reader(ast.NodeVisitor):
    def __init__(self):
        self.loops, self.functions, self.calls, self.backwards = [], [], [], []
        self.assigns, self.stores, self.reads = [], [], []
        self.function: str | None = None
        self.no_grad = False
        self.aliases: dict[str, str] = {}  # `ag` -> "torch.autograd", `G` -> "torch.autograd.grad"
        self.packed: dict[str, frozenset[str]] = {}  # `x = [state, h]` -> x: {state, h}, for `f(*x)`

    # imports: what a local name stands for, so `ag.grad` reads as torch.autograd.grad ------
    def visit_Import(self, node):
        for a in node.names:
            if a.asname:
                self.aliases[a.asname] = a.name

    def visit_ImportFrom(self, node):
        if node.module and not node.level:
            for a in node.names:
                self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"

    def _resolved(self, name: str) -> str:
        head, dot, rest = name.partition(".")
        full = self.aliases.get(head)
        return f"{full}{dot}{rest}" if full and full.startswith("torch") else name

    # scopes -------------------------------------------------------------------
    def _block(self, body, *, no_grad=None, function=None):
        saved = self.no_grad, self.function
        if no_grad is not None:
            self.no_grad = no_grad
        if function is not None:
            self.function = function
        for stmt in body:
            self.visit(stmt)
        self.no_grad, self.function = saved

    def visit_FunctionDef(self, node):
        params = tuple(a.arg for a in (*node.args.posonlyargs, *node.args.args))
        self.functions.append(Function(node.name, node.lineno, node.end_lineno, params))
        for d in node.decorator_list:
            self.visit(d)
        decorated = any(dotted(d.func if isinstance(d, ast.Call) else d) in
                        {"torch.no_grad", "no_grad", "torch.inference_mode"} for d in node.decorator_list)
        self._block(node.body, no_grad=True if decorated else False, function=node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _loop(self, node, header):
        self.loops.append(Loop(node.lineno, node.end_lineno, self.function))
        header()
        self._block(node.body)
        self._block(node.orelse)

    def visit_For(self, node):
        def header():
            self.visit(node.iter)
            self.assigns.append(Assign(node.lineno, tuple(target_names(node.target)),
                                       names_read(node.iter), no_grad=self.no_grad))
        self._loop(node, header)

    visit_AsyncFor = visit_For

    def visit_While(self, node):
        self._loop(node, lambda: self.visit(node.test))

    def visit_With(self, node):
        mode = None
        for item in node.items:
            self.visit(item.context_expr)
            expr = item.context_expr
            name = dotted(expr.func if isinstance(expr, ast.Call) else expr) or ""
            if name.rpartition(".")[2] in NO_GRAD_MODES:
                mode = True
            elif name.rpartition(".")[2] == "enable_grad":
                mode = False
        self._block(node.body, no_grad=mode)

    visit_AsyncWith = visit_With

    # statements ---------------------------------------------------------------
    def _assign(self, node, targets, value, augmented=False):
        self.visit(value)
        names = [n for t in targets for n in target_names(t)]
        for t in targets:
            self._store_targets(t, node.lineno, value)
        call = unmoved(value) if isinstance(value, ast.Call) else None
        if len(names) == 1 and isinstance(value, (ast.List, ast.Tuple)):
            self.packed[names[0]] = names_read(value)
        operands = {keyed(o) or dotted(o) for o in add_operands(value)}
        accumulates = len(names) == 1 and (
            (augmented and isinstance(node.op, (ast.Add, ast.Sub))) or
            (not augmented and isinstance(value, ast.BinOp) and names[0] in operands))
        reads = names_read(value) | (frozenset(names) if augmented else frozenset())
        if augmented:
            self.reads.extend((n, node.lineno) for n in names)
        if names:
            self.assigns.append(Assign(
                node.lineno, tuple(names), reads,
                call=dotted(call.func) if call is not None else None,
                call_args=self._call_args(call) if call is not None else frozenset(),
                accumulates=accumulates, detached=is_detached(value), no_grad=self.no_grad, augmented=augmented))

    def _call_args(self, call: ast.Call) -> frozenset[str]:
        """The names a call reads as arguments, including those packed into a list it unpacks
        (`x = [state, h]; f(*x)` reads `h`)."""
        out = frozenset().union(*(names_read(a) for a in [*call.args, *(k.value for k in call.keywords)]))
        for a in call.args:
            if isinstance(a, ast.Starred) and isinstance(a.value, ast.Name):
                out |= self.packed.get(a.value.id, frozenset())
        return out

    def _store_targets(self, target, line, value):
        if isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._store_targets(elt, line, value)
        elif isinstance(target, ast.Subscript):
            container = dotted(target.value)
            self.visit(target.slice)
            if container:
                self.stores.append(Store(line, container, "setitem", names_read(value), is_detached(value),
                                         short_text(value)))
                self.reads.append((container, line))

    def visit_Assign(self, node):
        self._assign(node, node.targets, node.value)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self._assign(node, [node.target], node.value)

    def visit_AugAssign(self, node):
        self._assign(node, [node.target], node.value, augmented=True)

    # expressions --------------------------------------------------------------
    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            self.reads.append((node.id, node.lineno))

    def visit_Subscript(self, node):
        if isinstance(node.ctx, ast.Load) and keyed(node):
            self.reads.append((keyed(node), node.lineno))
        self.generic_visit(node)

    def visit_Attribute(self, node):
        if isinstance(node.ctx, ast.Load):
            name = dotted(node)
            while name:
                self.reads.append((name, node.lineno))
                name = name.rpartition(".")[0]
        self.generic_visit(node)

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        name = dotted(func) or (f".{func.attr}" if isinstance(func, ast.Attribute) else "")
        receiver = dotted(func.value) if isinstance(func, ast.Attribute) else None
        args = [*node.args, *(k.value for k in node.keywords)]
        arg_names = frozenset().union(*(names_read(a) for a in args)) if args else frozenset()
        keywords = tuple((k.arg, const_text(k.value)) for k in node.keywords if k.arg)
        self.calls.append(Call(node.lineno, name, receiver, arg_names, keywords, self.no_grad,
                               tuple(dotted(a) if isinstance(a, (ast.Name, ast.Attribute)) else None for a in node.args)))
        self._backward_site(node, func, name, keywords)
        if isinstance(func, ast.Attribute) and func.attr in {"append", "extend", "insert", "appendleft", "add", "update", "setdefault"} and receiver:
            value = node.args[-1] if node.args else None
            if value is not None:
                self.stores.append(Store(node.lineno, receiver, func.attr, names_read(value), is_detached(value),
                                         short_text(value), keyed=isinstance(func.value, ast.Subscript)))
        named = named_store(node, receiver)
        if named is not None and dotted(named[0]):  # `self.register_buffer("cache", v)`: an attribute
            owner, attr, value = named
            self.stores.append(Store(node.lineno, f"{dotted(owner)}.{attr}", "setattr", names_read(value),
                                     is_detached(value), short_text(value)))

    def _backward_site(self, node, func, name, keywords):
        kw = dict(keywords)
        name = self._resolved(name)
        if _RUNS_BACKWARD.search(name) and node.args:  # accelerator.backward(loss), self.manual_backward(loss)
            receiver, positional_retain = node.args[0], None
            kind = "backward"
        elif isinstance(func, ast.Attribute) and func.attr == "backward" and name not in {"torch.autograd.backward", "autograd.backward"}:
            receiver, positional_retain = func.value, node.args[1] if len(node.args) > 1 else None
            kind = "backward"
        elif name.endswith("autograd.backward") or name.endswith("autograd.grad") or name in {"grad", "backward"} and node.args:
            if not node.args:
                return
            receiver, positional_retain = node.args[0], None
            kind = "grad" if name.endswith("grad") else "backward"
        else:
            return
        retain = kw.get("retain_graph", const_text(positional_retain) if positional_retain is not None else "False")
        self.backwards.append(BackwardSite(node.lineno, kind, ast.unparse(receiver), names_read(receiver),
                                           retain_graph=retain not in {"False", "None"}))


def read_code(source: str) -> CodeFacts:
    """Never raises: code that does not parse gives `parsed=False` and its lines only."""
    lines = tuple(source.splitlines())
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return CodeFacts(lines=lines, parsed=False)
    reader = _Reader()
    try:
        reader._block(tree.body)
    except RecursionError:
        return CodeFacts(lines=lines, parsed=False)
    return CodeFacts(lines=lines, parsed=True, loops=tuple(reader.loops), functions=tuple(reader.functions),
                     calls=tuple(reader.calls), backwards=tuple(reader.backwards), assigns=tuple(reader.assigns),
                     stores=tuple(reader.stores), reads=tuple(reader.reads))
