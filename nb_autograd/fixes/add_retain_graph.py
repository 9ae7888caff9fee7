"""retain_graph=True on the earlier backward()/autograd.grad() call: a second pass through
the same graph becomes possible, at the price of keeping every saved tensor alive.
With keyword="create_graph" it makes a gradient penalty differentiable instead."""
from __future__ import annotations

import libcst as cst

from .cst import autograd_function, backward_call, calls_in, load


def add_retain_graph(source: str, *, line: int = 0, keyword: str = "retain_graph", lines: tuple[int, ...] = ()) -> str | None:
    """`lines`: several calls of one pass (each task's autograd.grad before the loss's backward),
    all or none; a call already keeping the graph stays as it is."""
    if lines:
        out = source
        for each in lines:
            out = add_retain_graph(out, line=each, keyword=keyword) or (out if _keeps(out, each, keyword) else None)
            if out is None:
                return None
        return out if out != source else None
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    if stmt is None:
        return None
    calls = [c for c in calls_in(stmt) if backward_call(c, tree) is not None]
    if len(calls) != 1:
        return None
    call = calls[0]
    function = autograd_function(call, tree)
    limit = 3 if function == "grad" else 2 if function == "backward" else 1
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in call.args) or len(positional) > limit:
        return None
    given = next((a for a in call.args if a.keyword and a.keyword.value == keyword), None)
    if given is not None:
        if isinstance(given.value, cst.Name) and given.value.value == "True":
            return None
        new_args = [a.with_changes(value=cst.Name("True")) if a is given else a for a in call.args]
    else:
        args = list(call.args)
        if args and args[-1].comma is cst.MaybeSentinel.DEFAULT:
            args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        new_args = [*args, cst.Arg(keyword=cst.Name(keyword), value=cst.Name("True"),
                                   equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                                         whitespace_after=cst.SimpleWhitespace("")))]
    return tree.replace(stmt, stmt.deep_replace(call, call.with_changes(args=new_args)))


def _keeps(source: str, line: int, keyword: str) -> bool:
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    return stmt is not None and any(a.keyword and a.keyword.value == keyword and isinstance(a.value, cst.Name)
                                    and a.value.value == "True" for c in calls_in(stmt) for a in c.args)
