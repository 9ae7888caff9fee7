"""A helper that computes its result under no_grad (`@torch.no_grad()` or a `with` block,
written for evaluation) called where the result is trained: compute what it returns right at
that call (`out = predict(model, x)` -> `out = model(x)`), so the helper stays as it was for
its other callers. Only for a helper whose body is that one return."""
from __future__ import annotations

import libcst as cst

from .cst import calls_in, code_of, expr, load, swap


def _returned(fn: cst.FunctionDef) -> cst.BaseExpression | None:
    """The expression of `return EXPR`, alone in the body or alone in a `with` block."""
    body = list(fn.body.body) if isinstance(fn.body, cst.IndentedBlock) else []
    if len(body) == 1 and isinstance(body[0], cst.With) and isinstance(body[0].body, cst.IndentedBlock):
        body = list(body[0].body.body)
    ret = body[0].body[0] if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) \
        and len(body[0].body) == 1 else None
    return ret.value if isinstance(ret, cst.Return) else None


def _bound(fn: cst.FunctionDef, call: cst.Call) -> dict[str, cst.BaseExpression] | None:
    """Parameter name -> the argument expression, or None for anything but plain arguments."""
    params = fn.params
    if params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or params.star_kwarg or params.posonly_params:
        return None
    names = [p.name.value for p in (*params.params, *params.kwonly_params)]
    defaults = {p.name.value: p.default for p in (*params.params, *params.kwonly_params) if p.default}
    bound = dict(defaults)
    for i, arg in enumerate(call.args):
        if arg.star or (arg.keyword is None and i >= len(params.params)):
            return None
        bound[arg.keyword.value if arg.keyword else names[i]] = arg.value
    return bound if set(names) <= set(bound) else None


def inline_helper(source: str, line: int, function: str) -> str | None:
    tree = load(source)
    fn = next((n for n in (tree.positions if tree else ()) if isinstance(n, cst.FunctionDef)
               and n.name.value == function), None)
    stmt = fn and tree.statement(line)
    calls = [c for c in calls_in(stmt) if isinstance(c.func, cst.Name) and c.func.value == function] if stmt else []
    returned = fn and _returned(fn)
    if not calls or returned is None:
        return None
    inlined = {}
    for call in calls:  # `info_nce(encode(x1), encode(x2))`: every call of the helper in the statement
        bound = _bound(fn, call)
        if bound is None:
            return None
        inlined[call] = _atom(swap(returned, _arguments_in(returned, bound)))
    return tree.replace(stmt, swap(stmt, inlined))


def _arguments_in(returned: cst.BaseExpression, bound: dict) -> dict:
    """Each parameter name in the returned expression -> its argument, parenthesised unless it
    is a whole call argument there."""
    uses: dict = {}  # parameter Name node -> (argument, needs no parentheses there)

    class _Params(cst.CSTVisitor):
        def visit_Name(self, node):
            if node.value in bound:
                uses.setdefault(node, (bound[node.value], False))

        def visit_Arg(self, node):
            if isinstance(node.value, cst.Name) and node.value.value in bound:
                uses[node.value] = (bound[node.value.value], True)

        def visit_Attribute(self, node):
            node.value.visit(self)
            return False

    returned.visit(_Params())
    return {n: v if bare else _atom(v) for n, (v, bare) in uses.items()}


def _atom(node: cst.BaseExpression) -> cst.BaseExpression:
    """`node`, parenthesised unless it binds as tightly as a name."""
    atom = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.BaseNumber, cst.BaseString)
    return node if isinstance(node, atom) or node.lpar else expr(f"({code_of(node)})")
