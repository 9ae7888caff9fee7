"""Statement marks: the cheap way to know which line made each autograd node.

A watched cell (or script) is compiled with a call before each of its statements, and each
function of it says when it returns (`return back(x)`). Each call notes the
autograd sequence number at that moment, so a node's id falls in the range of the statement
that was running when it was made. Nothing runs per torch op, nothing runs outside the
instrumented code: the cost is one small Python call per executed statement of the cell.

The two entry points are reached as builtins (`__nb_autograd_mark__`, `__nb_autograd_back__`):
the user's namespace gains nothing, torch.compile can trace through them (it cannot load a
function stored as a code constant), and functions defined in a watched cell still run after
unload, so the two names stay in builtins once set (with no watcher listening they return at once)."""
from __future__ import annotations

import ast
import builtins
import sys
import types

import torch

_MARK = "__nb_autograd_mark__"     # builtins' names for _mark and _back
_BACK = "__nb_autograd_back__"
_LISTENERS: list = []                # watchers listening, innermost last
_getframe = sys._getframe
# torch.compiler.is_compiling() in one call instead of two (it runs once per statement): dynamo
# traces is_dynamo_compiling() as True; run, it is False, and is_compiling() is this flag.
_dynamo_compiling = torch.compiler.is_dynamo_compiling
_compiler = torch.compiler


def _mark(line: int | None = None) -> None:
    """A statement of instrumented code begins at `line` (the compiler writes it in: the
    caller's f_lineno would scan its code's line table, long in a long cell). Under
    torch.compile's tracing it does nothing (so it breaks no graph)."""
    if _LISTENERS and not _dynamo_compiling() and not _compiler._is_compiling_flag:
        _LISTENERS[-1].on_statement(_getframe(1), True, line)


def _back(value=None):
    """An instrumented function returns `value`: what runs next belongs to its caller."""
    if _LISTENERS and not _dynamo_compiling() and not _compiler._is_compiling_flag:
        _LISTENERS[-1].on_statement(_getframe(1).f_back, False)
    return value


def listen(watcher) -> None:
    _LISTENERS.append(watcher)


def unlisten(watcher) -> None:
    while watcher in _LISTENERS:
        _LISTENERS.remove(watcher)


class _Instrument(ast.NodeTransformer):
    def _call(self, which: str, node: ast.AST, *args) -> ast.stmt:
        call = ast.Expr(ast.Call(func=ast.Name(which, ast.Load()), args=[ast.Constant(a) for a in args], keywords=[]))
        return ast.copy_location(call, node)

    def _marked(self, body: list[ast.stmt], top: bool = False) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for i, stmt in enumerate(body):
            stmt = self.visit(stmt)
            keep_first = i == 0 and _is_docstring(stmt) or top and _is_future(stmt)
            if not keep_first and not _makes_no_node(stmt):
                out.append(self._call(_MARK, stmt, stmt.lineno))
            out.append(stmt)
        return out

    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                setattr(node, field, self._marked(body))
        for field, value in ast.iter_fields(node):
            if field in ("body", "orelse", "finalbody") and isinstance(value, list):
                continue
            if isinstance(value, list):
                setattr(node, field, [self.visit(v) if isinstance(v, ast.AST) else v for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
        return node

    def _function(self, node):
        """`return x` becomes `return back(x)`, and a body that can end without a return
        ends with `back()` (not try/finally: a finally block moves the line a traceback shows)."""
        node = self.generic_visit(node)
        for child in ast.walk(node):
            if isinstance(child, ast.Return) and child is not node and _owner(node, child):
                value = child.value or ast.copy_location(ast.Constant(None), child)
                child.value = ast.copy_location(ast.Call(func=ast.Name(_BACK, ast.Load()), args=[value], keywords=[]), value)
        if not isinstance(node.body[-1], ast.Return):
            node.body.append(self._call(_BACK, node.body[-1]))
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_Lambda(self, node):
        return node  # an expression: its ops belong to the statement that calls it


def _owner(function: ast.AST, ret: ast.Return) -> bool:
    """Whether `ret` returns from `function` itself, not from a function nested in it."""
    todo = list(ast.iter_child_nodes(function))
    while todo:
        child = todo.pop()
        if child is ret:
            return True
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(child))
    return False


_NODE_FREE = {"zero_grad": None, "step": 0, "backward": 1, "train": 1, "eval": 0}  # method -> positional args allowed


def _makes_no_node(stmt: ast.stmt) -> bool:
    """`opt.zero_grad()`, `opt.step()`, `loss.backward(retain_graph=True)`, `model.train()`: a call
    of torch's that makes no autograd node, with plain arguments, needs no mark (a mark only says
    which statement made the nodes numbered after it; one fewer per step of a watched loop).
    Not `step(closure)` (the closure builds a graph) nor `backward(create_graph=True)`."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _NODE_FREE):
        return False
    allowed = _NODE_FREE[call.func.attr]
    if allowed is not None and len(call.args) > allowed:
        return False
    if call.func.attr == "step" and not any(w in _last_name(call.func.value) for w in ("opt", "sched")):
        return False  # a trainer's or an agent's own step() may run a forward
    plain = (ast.Constant, ast.Name, ast.Attribute)
    return _is_plain(call.func.value) and all(isinstance(a, plain) for a in call.args) and \
        all(k.arg != "create_graph" and isinstance(k.value, plain) for k in call.keywords)


def _last_name(node: ast.AST) -> str:
    return (node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")).lower()


def _is_plain(node: ast.AST) -> bool:
    """A name or a chain of attributes (`opt`, `self.opt_g`): reading it runs no user code of note."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _is_future(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"


def compile_marked(source: str, filename: str, flags: int = 0) -> types.CodeType:
    """`compile(source, filename, "exec")` with statement marks; same lines, same tracebacks.
    A SyntaxError is the plain compile's."""
    tree = ast.parse(source, filename, "exec")
    tree.body = _Instrument()._marked(tree.body, top=True)
    ast.fix_missing_locations(tree)
    setattr(builtins, _MARK, _mark)
    setattr(builtins, _BACK, _back)
    return compile(tree, filename, "exec", flags=flags, dont_inherit=True)


def is_marked(code) -> bool:
    """Whether `code` came from compile_marked (its statements will report)."""
    return isinstance(code, types.CodeType) and _MARK in code.co_names


def compile_unit(source: str, filename: str, marked: bool) -> types.CodeType:
    """How every seam compiles the user's unit: with marks when it is watched, else as plain
    Python would (no __future__ flags of ours leak in)."""
    return compile_marked(source, filename) if marked else compile(source, filename, "exec", dont_inherit=True)

