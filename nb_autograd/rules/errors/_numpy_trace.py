"""Where a tensor refused by a NumPy conversion came from. The conversion is often not the
user's own line (a plotting helper, matplotlib) and not where the mistake is: a value handed
down from a caller is fixed where it is passed, and a logged list of losses where the losses
are appended (`history.append(loss)`), which keeps each step's graph alive as well."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache

from ...evidence import Evidence
from ...evidence.errors import FACTORIES
from ._no_grad_trace import made_before, no_grad_with

# calls that hand their arguments' values on (a loop over a zip, an average of a list)
_PASS = frozenset(("zip", "enumerate", "sum", "len", "list", "tuple", "map", "sorted", "reversed", "range",
                   "dict", "iter", "min", "max", "abs", "round", "float"))


@dataclass(frozen=True)
class Origin:
    line: int
    kind: str                                 # "passed" | "stores" | "assign"
    expr: str = ""                            # for passed: the argument as the caller writes it
    stores: tuple[tuple[int, str], ...] = ()  # for stores: (line, list) of each logged value


@lru_cache(maxsize=8)
def _tree(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


def _callee(tree: ast.Module, line: int) -> tuple[str, list[str]] | None:
    """(the name a caller uses, parameters) of the function whose body holds `line`: a
    class's name for its `__init__`."""
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and fn.lineno < line <= fn.end_lineno:
                    name = node.name if fn.name == "__init__" else fn.name
                    static = any(getattr(d, "id", None) == "staticmethod" for d in fn.decorator_list)
                    best = (name, [a.arg for a in fn.args.args][0 if static else 1:])  # without self
        elif isinstance(node, ast.FunctionDef) and node.lineno < line <= node.end_lineno and best is None:
            best = (node.name, [a.arg for a in node.args.args])
    return best


def passed_from_caller(ev: Evidence, arg: str) -> Origin | None:
    """The caller's argument for the parameter `arg` of the function the conversion ran in,
    followed up the user stack while it is again a parameter passed on."""
    source = "\n".join(ev.code.lines)
    tree = _tree(source) if ev.failure else None
    stack = list(ev.failure.stack_lines) if ev.failure else []
    found = None
    while tree is not None and len(stack) >= 2 and arg.isidentifier():
        callee = _callee(tree, stack[-1])
        if callee is None or arg not in callee[1]:
            break
        name, params = callee
        calls = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and c.lineno <= stack[-2] <= c.end_lineno
                 and (getattr(c.func, "attr", None) or getattr(c.func, "id", None)) == name]
        if not calls:
            break
        call, index = calls[0], params.index(arg)
        value = next((k.value for k in call.keywords if k.arg == arg), None)
        value = value or (call.args[index] if index < len(call.args) and not isinstance(call.args[index], ast.Starred) else None)
        if value is None:
            break
        stack.pop()
        found = Origin(call.lineno, "passed", ast.get_source_segment(source, value) or ast.unparse(value))
        arg = found.expr
    return found


def _passes_on(a, kinds: dict) -> bool:
    """An average or a copy of lists (`sum(xs) / len(xs)`): it hands on what they hold."""
    return (a.call is None or a.call.split(".")[-1] in _PASS) and all(
        r in _PASS or kinds.get(r, "tensor") != "tensor" for r in a.reads)


def origin_of(ev: Evidence, names, line: int) -> Origin | None:
    """Back from `names` read at `line` through renames, unpacking, loops over them and averages,
    to lists the values were appended to (a log of losses), else to the assignment that made the
    tensor. Where the runtime told which names held a graph, only those are followed, and the
    tensor is made where such a name is first assigned from more than a name or a loop."""
    kinds = dict(ev.failure.grad_names) if ev.failure else {}
    loop_lines = {l.line for l in ev.code.loops}
    todo, seen, stores, made = [(n, line) for n in names], set(), [], []
    while todo and len(seen) < 200:
        name, before = todo.pop()
        if (name, before) in seen or name in _PASS or kinds and name not in kinds:
            continue
        seen.add((name, before))
        a = made_before(ev, name, before)
        if a is None:  # `[a.mean().numpy() for a in activations]`: what the comprehension walks over
            todo += [(n, before) for n in _iterated_by(ev, name, before)]
        appended = [s for s in ev.code.stores if s.container == name and s.line < before and (a is None or a.line < s.line)]
        for s in appended:
            if no_grad_with(ev, s.line) or s.detached:
                continue
            source = made_before(ev, s.value, s.line) if s.value.isidentifier() else None
            if source is not None and not source.detached and not _passes_on(source, kinds):
                stores.append((s.line, name))  # the loss itself is kept
            elif source is None and s.value.isidentifier() and kinds.get(name) not in (None, "tensor"):
                stores.append((s.line, name))  # what a hook is handed (`acts.append(o)`), kept as the runtime saw
            else:
                todo += [(n, s.line) for n in s.reads]
        if appended or a is None or a.detached or a.no_grad:
            continue
        filled = _filled_and_returned(ev, a.call)
        if filled:  # `xys = opt_fn(...)`: the user's function fills a buffer and returns it
            todo += filled
            continue
        text = ev.code.line_text(a.line)
        plain = a.line in loop_lines or text.partition("=")[2].strip().isidentifier()
        if not plain and (kinds.get(name) == "tensor" or not kinds and a.call and a.call.split(".")[-1] not in _PASS):
            made.append(a.line)  # the nearest is where the tensor is made; a log further up still wins
        todo += [(n, a.line) for n in a.reads]
    if stores:
        stores = sorted(set(stores))
        return Origin(stores[0][0], "stores", stores=tuple(stores))
    return Origin(made[0], "assign") if made else None


def _iterated_by(ev: Evidence, name: str, line: int) -> list[str]:
    """The names a comprehension on `line` iterates to bind `name`."""
    tree = _tree("\n".join(ev.code.lines))
    return [n.id for c in (ast.walk(tree) if tree else ()) if isinstance(c, ast.comprehension)
            and c.iter.lineno <= line <= c.iter.end_lineno and name in {t.id for t in ast.walk(c.target) if isinstance(t, ast.Name)}
            for n in ast.walk(c.iter) if isinstance(n, ast.Name)]


def _filled_and_returned(ev: Evidence, call: str | None) -> list[tuple[str, int]]:
    """(name, its return line) for what the user's function `call` returns when the function
    fills that name item by item (`xys[i] = xy`, `out.append(x)`): where the values came in."""
    tree = _tree("\n".join(ev.code.lines)) if call and call.isidentifier() else None
    fn = next((n for n in (tree.body if tree else ()) if isinstance(n, ast.FunctionDef) and n.name == call), None)
    if fn is None:
        return []
    out = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Name):
            name = node.value.id
            if any(s.container == name and fn.lineno < s.line < node.lineno for s in ev.code.stores):
                out.append((name, node.lineno))
    return out


def attribute_origin(ev: Evidence, expr: str) -> Origin | None:
    """`model.alphas[0]` read for a plot: where a module's method stores the attribute from a
    value it computed (`self.alphas = alphas`), not where it is set up (`None`, `torch.zeros`);
    for a list its methods append to, those appends."""
    try:
        node = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return None
    while isinstance(node, ast.Subscript):
        node = node.value
    if not isinstance(node, ast.Attribute):
        return None
    attr = "self." + node.attr
    logged = [(s.line, attr) for s in ev.code.stores if s.container == attr and s.method == "append"
              and not s.detached and not no_grad_with(ev, s.line) and ev.code.function_at(s.line) is not None]
    if logged:  # a method's log (`self.activation_loss.append(activ)`): each entry keeps its step's graph
        return Origin(logged[0][0], "stores", stores=tuple(logged))
    for a in sorted(ev.code.assigns_to(attr), key=lambda a: a.line):
        made_by_factory = (a.call or "").rpartition(".")[2] in FACTORIES
        if a.reads and not a.detached and not a.no_grad and not made_by_factory and ev.code.function_at(a.line) is not None \
                and not ev.code.set_up_only(a.line):  # a parameter made in __init__ is trained, not kept
            return Origin(a.line, "assign")
    return None
