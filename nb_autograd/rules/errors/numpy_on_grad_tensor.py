"""A tensor still attached to the graph was converted to NumPy."""
from __future__ import annotations

import ast
import re

import libcst

from ...evidence import Evidence
from ...evidence.errors import FACTORIES
from ...fixes.plan import plan
from ..base import Hit
from ._no_grad_trace import made_before
from ._numpy_trace import Origin, attribute_origin, origin_of, passed_from_caller
from .numpy_on_grad_tensor_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "numpy_on_grad_tensor"
SYMPTOM = "numpy_on_grad"

def _site(ev: Evidence) -> tuple[str, str, str]:
    """(variant, expression or call, argument) for the conversion written at the failing line;
    of several arguments, the one the runtime saw holding a graph."""
    tree = _statement(ev, ev.line)
    if tree is None:
        return "", ev.code.line_text(ev.line), ""
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    explicit = [c for c in calls if isinstance(c.func, ast.Attribute) and c.func.attr == "numpy"]
    if explicit:
        return "", ast.unparse(explicit[0]), ""
    grad = dict(ev.failure.grad_names) if ev.failure else {}
    named = [(call, arg) for call in calls for arg in [*call.args, *(k.value for k in call.keywords)]
             if isinstance(arg, (ast.Name, ast.Attribute, ast.Subscript))
             or isinstance(arg, (ast.Tuple, ast.List, ast.ListComp, ast.GeneratorExp))  # `np.array([a[0] for a in acts])`
             and any(isinstance(n, ast.Name) and n.id in grad for n in ast.walk(arg))]
    named.sort(key=lambda ca: (not any(isinstance(n, ast.Name) and n.id in grad for n in ast.walk(ca[1])),
                               isinstance(ca[1], (ast.List, ast.ListComp, ast.GeneratorExp))))  # a name it reads first
    if named:
        return "implicit", ast.unparse(named[0][0]), ast.unparse(named[0][1])
    return "", ev.code.line_text(ev.line), ""


def _statement(ev: Evidence, line: int) -> ast.Module | None:
    """The statement that starts at `line`, read on over the lines it continues on
    (`ax.add_patch(plt.Rectangle((xmin, ymin), w, h,` / `fill=False))`)."""
    text = ""
    for n in range(line, min(line + 12, len(ev.code.lines) + 1)):
        text += ev.code.line_text(n).strip() + "\n"
        try:
            return ast.parse(text)
        except SyntaxError:
            continue
    return None


def _names(expr: str) -> list[str]:
    try:
        return [n.id for n in ast.walk(ast.parse(expr, mode="eval")) if isinstance(n, ast.Name)]
    except SyntaxError:
        return []


def _traced(ev: Evidence, arg: str) -> tuple[Origin | None, Origin | None]:
    """(the caller's argument when the conversion ran on a value passed down, where a container
    of tensors was filled or made)."""
    passed = passed_from_caller(ev, arg) if arg.isidentifier() else None
    line, expr = (passed.line, passed.expr) if passed else (ev.line, arg)
    kinds = dict(ev.failure.grad_names)
    names = _names(expr)
    container = expr.startswith(("(", "[")) or any(kinds.get(n) not in (None, "tensor") for n in names[:1])
    return passed, origin_of(ev, names, line) if container else attribute_origin(ev, expr)


def _logged_before(ev: Evidence, expr: str) -> Origin | None:
    """`torch.cat(acts).numpy()`, `stacked.numpy()` after `stacked = torch.stack(acts)`: an
    explicit conversion of what a logged list holds, each entry stored with its graph. Only a
    log counts here (a tensor made and converted in place is fixed where it is converted)."""
    if ev.failure is None or not expr.endswith(".numpy()"):
        return None
    origin = origin_of(ev, _names(expr.removesuffix(".numpy()")), ev.line)
    return origin if origin is not None and origin.kind == "stores" else None


def logged_totals(ev: Evidence) -> list:
    """Running totals of a backpropagated loss kept as tensors (`train_loss += loss`) and never
    backpropagated themselves: metrics that carry the graph into whatever logs or plots them."""
    losses = {n for b in ev.code.backwards for n in b.names}
    return [a for a in ev.code.assigns if a.accumulates and not a.detached and a.reads & losses
            and not set(a.targets) & losses and a.line != ev.line]


def _model_math(ev: Evidence, call: str) -> bool:
    """NumPy math (`np.sum(final, 0)`) written in a module's `forward`, with a torch twin: the
    model computes with it, so its result must keep the graph, not lose it."""
    from ...fixes.numpy_to_torch import torch_twin

    function = ev.code.function_at(ev.line)
    if function is None or function.name not in ("forward", "__call__"):
        return False
    try:
        node = libcst.parse_expression(call)
    except libcst.ParserSyntaxError:
        return False
    return isinstance(node, libcst.Call) and torch_twin(node) is not None


def inference_forward(ev: Evidence) -> int | None:
    """A program that never backpropagates nor builds an optimizer (a model's predictions
    drawn or saved), converted inside a user file it imports (a drawing utility, not the
    notebook's own line): the earliest statement that made one of the graphs the runtime saw
    in the frames from inputs without one (`net_outs = net(img)`), which no_grad leaves plain."""
    if ev.failure is None or ev.capture.backwards or ev.code.backwards or \
            any(a.call and a.call.split(".")[-2:-1] == ["optim"] for a in ev.code.assigns):
        return None
    converted = ev.place(ev.line)
    if converted.file is None:
        return None
    grad = {n for n, _ in ev.failure.grad_names}
    first = ev.failure.stack_lines[0] if ev.failure.stack_lines else ev.line
    made = [made_before(ev, n, first) for n in grad]
    roots = [a.line for a in made if a is not None and a.call and not a.detached and not a.no_grad
             and a.call.rpartition(".")[2] not in FACTORIES and a.call.rpartition(".")[2] != "Parameter"
             and not {r.split(".")[0] for r in a.reads} & grad and ev.code.function_at(a.line) is None
             and ev.place(a.line).file != converted.file]
    return min(roots) if roots else None


_STAR_NUMPY = re.compile(r"\s*(from\s+(numpy|pylab|matplotlib\.pylab)\s+import\s+\*|%pylab\b|get_ipython\(\)\.run_line_magic\(['\"]pylab)")


def shadowed_call(ev: Evidence) -> tuple[str, ...]:
    """The builtins called bare at the failing line that the runtime saw bound to NumPy's
    functions (`sum(layer_losses)` after `from numpy import *` or `%pylab`)."""
    tree = _statement(ev, ev.line) if ev.failure and ev.failure.numpy_builtins else None
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)} if tree else set()
    return tuple(n for n in ev.failure.numpy_builtins if n in called) if tree else ()


def _star_import(ev: Evidence) -> int | None:
    """The program's first line that star-imports NumPy's names (`%pylab inline` included)."""
    return next((n for n, text in enumerate(ev.code.lines, 1) if _STAR_NUMPY.match(text)), None)


def match(ev: Evidence) -> Hit | None:
    if ev.line is None:
        return None
    variant, expr, arg = _site(ev)
    facts = (("expr", expr), ("call", expr), ("arg", arg), ("line", str(ev.line)))
    shadowed = shadowed_call(ev)
    if shadowed:  # `sum` is NumPy's here: it converts the list of losses it was meant to add
        star = _star_import(ev) or ev.line
        return Hit(CAUSE, star, 0.95, facts=(*facts[:3], ("line", str(star)), ("convert_line", str(ev.line)),
                                            ("name", shadowed[0])), related=(("convert", ev.line),), variant="numpy_builtin")
    totals = logged_totals(ev) if variant == "implicit" else []
    if len(totals) == 1:  # a list of logged losses converted for a plot: each is a tensor with its graph
        total = totals[0]
        return Hit(CAUSE, total.line, 0.95, facts=(*facts[:3], ("line", str(total.line)), ("name", total.targets[0]),
                                                   ("convert_line", str(ev.line))),
                   related=(("convert", ev.line),), variant="logged_total")
    if variant == "implicit" and _model_math(ev, expr):  # part of what the model computes: it must stay a tensor
        return Hit(CAUSE, ev.line, 0.95, facts=facts, variant="model_math")
    forward = inference_forward(ev)
    if forward is not None:  # predictions of a model nobody trains here: made without a graph
        return Hit(CAUSE, forward, 0.95, facts=(*facts[:3], ("line", str(forward)), ("convert_line", str(ev.line))),
                   related=(("convert", ev.line),), variant="inference")
    passed, origin = _traced(ev, arg) if variant == "implicit" and ev.failure else (None, _logged_before(ev, expr))
    at = passed.line if passed else ev.line
    if origin is not None and origin.kind == "stores":  # a log of losses, each still holding its step's graph
        stores = ";".join(f"{l}:{n}" for l, n in origin.stores)
        return Hit(CAUSE, origin.line, 0.95, facts=(*facts[:3], ("line", str(origin.line)), ("convert_line", str(at)),
                                                    ("name", origin.stores[0][1]), ("stores", stores)),
                   related=(("convert", at),), variant="logged_list")
    if origin is not None:  # tensors kept from a forward with grad, unpacked on their way to the plot
        return Hit(CAUSE, origin.line, 0.95, facts=(*facts[:3], ("line", str(origin.line)), ("convert_line", str(at)),
                                                    ("name", ev.code.line_text(origin.line).partition("=")[0].strip())),
                   related=(("convert", at),), variant="made_with_grad")
    if passed is not None:  # a helper converts what the caller handed it: detach it there
        return Hit(CAUSE, at, 0.95, facts=(("expr", passed.expr), ("call", passed.expr), ("arg", passed.expr), ("line", str(at)),
                                           ("convert_line", str(ev.line))), related=(("convert", ev.line),), variant="passed")
    return Hit(CAUSE, ev.line, 0.95, facts=facts, variant=variant)


def plans(hit: Hit, ev: Evidence) -> list:
    if hit.variant == "logged_total":  # keep the metric a plain value where it is summed
        return [plan("detach_accumulated", line=hit.line, name=hit.fact("name")),
                plan("detach_numpy", line=int(hit.fact("convert_line")), arg=hit.fact("arg") or None)]
    if hit.variant == "logged_list":
        stores = tuple((int(l), n) for l, n in (x.split(":", 1) for x in hit.fact("stores").split(";")))
        return [plan("detach_stores", title="detach_logged", stores=stores),  # else convert a detached copy
                plan("detach_numpy", line=int(hit.fact("convert_line")), arg=hit.fact("arg") or None)]
    if hit.variant == "model_math":
        return [plan("numpy_to_torch", line=hit.line)]
    if hit.variant == "numpy_builtin":
        return [plan("numpy_to_torch", title="numpy_builtin_to_torch", facts={"name": hit.fact("name")},
                     line=int(hit.fact("convert_line")), bare=(hit.fact("name"),))]
    if hit.variant == "inference":
        return [plan("wrap_no_grad", line=hit.line),
                plan("detach_numpy", line=int(hit.fact("convert_line")), arg=hit.fact("arg") or None)]
    if hit.variant == "made_with_grad":
        return [plan("add_detach", line=hit.line)]
    arg = hit.fact("arg") or None
    if arg and arg.startswith("[") and " for " in arg:  # a comprehension handed over: detached inside, where it reads
        arg = None
    items = dict(ev.failure.grad_names).get(arg) in ("list", "tuple") if ev.failure and arg else False
    return list([plan("detach_numpy", line=hit.line, arg=arg, items=items)])  # a list of losses: each detached
