"""A module's constructor derives a tensor from a parameter it creates on the spot
(`self.length_scale = torch.exp(nn.Parameter(torch.log(x)))`): the tensor is computed once,
its graph is freed by the first backward, and the parameter itself is never registered.
Keep the parameter on the module (`self.log_length_scale = nn.Parameter(...)`, named for the
function applied to it) and derive the value where it is used, on every call, as the
MiniGP fix does."""
from __future__ import annotations

import libcst as cst

from .cst import calls_in, constructor_assign, dotted, load, swap


def _parameter_call(value: cst.BaseExpression) -> cst.Call | None:
    found = [c for c in calls_in(value) if (dotted(c.func) or "").split(".")[-1] == "Parameter"]
    return found[0] if len(found) == 1 and found[0] is not value else None


def _raw_name(attr: str, value: cst.BaseExpression) -> str:
    """`log_<attr>` under an exp (the value is exp of what is trained), else `raw_<attr>`."""
    outer = dotted(value.func) if isinstance(value, cst.Call) else ""
    return f"log_{attr}" if (outer or "").split(".")[-1] == "exp" else f"raw_{attr}"


def parameter_in_forward(source: str, *, line: int) -> str | None:
    tree = load(source)
    found = constructor_assign(tree, line)
    param = found and _parameter_call(found.assign.value)
    if param is None:
        return None
    stmt, assign, init, cls, name = found.stmt, found.assign, found.init, found.cls, found.name
    raw = _raw_name(name[len("self."):], assign.value)
    inside = [n for n in tree.positions if tree.inside(n, cls)]
    if any(isinstance(n, cst.Attribute) and dotted(n) == f"self.{raw}" for n in inside) or any(
            isinstance(n, cst.Assign) and n is not assign and any(dotted(t.target) == name for t in n.targets)
            for n in inside):
        return None  # the name is taken, or the tensor is set again elsewhere
    derived = swap(assign.value, {param: cst.parse_expression(f"self.{raw}")})
    reads = {n: derived for n in inside if isinstance(n, cst.Attribute) and dotted(n) == name and not tree.inside(n, init)}
    if not reads:
        return None
    new_init = stmt.with_changes(body=[assign.with_changes(
        targets=[cst.AssignTarget(cst.parse_expression(f"self.{raw}"))], value=param)])
    return swap(tree.module, {stmt: new_init, **reads}).code
