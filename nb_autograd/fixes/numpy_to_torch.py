"""NumPy math on tensors inside a model's own computation (`np.sum(final, 0)` over a list of
layer outputs in `forward`), or a builtin a NumPy star import replaced (`sum(layer_losses)`
after `%pylab`): the result must stay a differentiable tensor, so the call becomes its torch
twin (`torch.sum(torch.stack(final), 0)`); detaching would cut the model's graph."""
from __future__ import annotations

import libcst as cst

from .cst import calls_in, dotted, expr, load, swap

REDUCTIONS = {"sum": "sum", "mean": "mean", "max": "amax", "min": "amin", "prod": "prod"}
JOINS = {"concatenate": "cat", "stack": "stack"}


def torch_twin(call: cst.Call, bare: tuple[str, ...] = ()) -> cst.BaseExpression | None:
    """The torch form of `np.<f>(x, axis)` (or `f(x)` for `f` in `bare`, names NumPy's), or None."""
    name = dotted(call.func) or ""
    module, _, f = name.rpartition(".")
    numpy = module in ("np", "numpy") or not module and f in bare
    if not numpy or f not in REDUCTIONS and f not in JOINS or not call.args:
        return None
    first, rest = call.args[0], [a.with_changes(keyword=cst.Name("dim")) if a.keyword and a.keyword.value == "axis" else a
                                 for a in call.args[1:]]
    if f in JOINS:
        return call.with_changes(func=expr(f"torch.{JOINS[f]}"), args=[first, *rest])
    listed = isinstance(first.value, (cst.List, cst.Tuple, cst.Name, cst.Attribute))
    value = expr(f"torch.stack({cst.Module([]).code_for_node(first.value)})") if listed else first.value
    return call.with_changes(func=expr(f"torch.{REDUCTIONS[f]}"), args=[first.with_changes(value=value), *rest])


def numpy_to_torch(source: str, *, line: int, bare: tuple[str, ...] = ()) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line)
    twins = {c: t for c in (calls_in(stmt) if stmt else ()) if (t := torch_twin(c, bare)) is not None}
    return tree.replace(stmt, swap(stmt, twins)) if twins else None
