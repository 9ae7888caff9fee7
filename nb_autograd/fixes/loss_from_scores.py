"""A loss computed from argmax'ed predictions has no gradient: compute it from the scores.

`preds = torch.softmax(logits, dim=1).argmax(dim=1)` then `loss = loss_fn(preds, y)` ->
`loss = torch.nn.functional.cross_entropy(logits, y.long())` (or `loss_fn(logits, y.long())`
when `loss_fn` is already a CrossEntropyLoss). `preds` stays for the metrics that read it.
Only for argmax over the class dimension (1 or -1) of a score tensor."""
from __future__ import annotations

import libcst as cst

from .cst import Tree, calls_in, code_of, dotted, expr, load, only_small

_MONOTONIC = {"softmax", "log_softmax", "sigmoid"}  # argmax of these is argmax of their input


def _argmax_input(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """The tensor an `.argmax(dim=1)` / `torch.argmax(x, 1)` somewhere in `node` reads."""
    for call in calls_in(node):
        name = dotted(call.func) or ""
        args = [a for a in call.args if not a.keyword]
        dims = [a.value for a in call.args if a.keyword and a.keyword.value == "dim"]
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "argmax" and name != "torch.argmax":
            scores, dims = call.func.value, dims or [a.value for a in args[:1]]
        elif name == "torch.argmax" and args:
            scores, dims = args[0].value, dims or [a.value for a in args[1:2]]
        else:
            continue
        if len(dims) == 1 and code_of(dims[0]).replace(" ", "") in ("1", "-1"):
            return _unwrapped(scores)
    return None


def _unwrapped(scores: cst.BaseExpression) -> cst.BaseExpression:
    """`torch.softmax(logits, dim=1)` -> `logits`."""
    while isinstance(scores, cst.Call) and _last(scores.func) in _MONOTONIC:
        if isinstance(scores.func, cst.Attribute) and not (dotted(scores.func) or "").startswith(("torch.", "F.")):
            scores = scores.func.value  # logits.softmax(dim=1)
        elif scores.args:
            scores = scores.args[0].value
        else:
            break
    return scores


_CASTS = {"float", "double", "half", "long", "int", "to", "type"}


def _uncast(node: cst.BaseExpression) -> cst.BaseExpression:
    """`pred.float()` -> `pred`: a cast made only so that a regression loss would accept indices."""
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _CASTS:
        node = node.func.value
    return node


def _last(func: cst.BaseExpression) -> str:
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""


def _is_cross_entropy(tree: Tree, criterion: str) -> bool:
    for node in tree.positions:
        stmt = only_small(node, cst.Assign) if isinstance(node, cst.SimpleStatementLine) else None
        if stmt and any(dotted(t.target) == criterion for t in stmt.targets) and isinstance(stmt.value, cst.Call):
            return (dotted(stmt.value.func) or "").endswith("CrossEntropyLoss")
    return False


def loss_from_scores(source: str, cut_line: int, loss_line: int) -> str | None:
    tree = load(source)
    cut = tree and only_small(tree.statement(cut_line), cst.Assign)
    loss = tree and only_small(tree.statement(loss_line), cst.Assign)
    scores = _argmax_input(cut.value) if cut else None
    call = loss.value if loss else None
    if scores is None or not isinstance(call, cst.Call) or len(call.args) != 2 or any(a.keyword for a in call.args):
        return None
    preds, target = (_uncast(a.value) for a in call.args)
    if len(cut.targets) != 1 or dotted(preds) != dotted(cut.targets[0].target):
        return None
    criterion = dotted(call.func) or ""
    plain = isinstance(target, (cst.Name, cst.Attribute, cst.Subscript, cst.Call))
    labels = f"{code_of(target)}.long()" if plain else f"({code_of(target)}).long()"
    head = criterion if _is_cross_entropy(tree, criterion) else "torch.nn.functional.cross_entropy"
    return tree.replace(call, expr(f"{head}({code_of(scores)}, {labels})"))
