"""Detach what crosses iterations: the value stored at a line (`temp.append(h)`,
`prev = out`, `self.bank = x`, `d[k] = v`) or, with `reads=True`, the carried names read
there (`ema = 0.9 * ema + ...` -> `0.9 * ema.detach() + ...`)."""
from __future__ import annotations

import libcst as cst

from ..evidence.named_stores import STORING
from .cst import calls_in, code_of, detached, dotted, expr, load, only_small, reads_of, swap

_STORING = {"append", "appendleft", "insert", "add"}
_LITERAL = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)


def detach_value(node: cst.BaseExpression) -> cst.BaseExpression:
    """Detach a value, element-wise for tuple/list/dict literals and comprehensions; constants
    stay as they are."""
    if isinstance(node, (cst.Tuple, cst.List)):
        return node.with_changes(elements=[e.with_changes(value=detach_value(e.value))
                                           if isinstance(e, cst.Element) else e for e in node.elements])
    if isinstance(node, cst.Dict):
        return node.with_changes(elements=[e.with_changes(value=detach_value(e.value))
                                           if isinstance(e, cst.DictElement) else e for e in node.elements])
    if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):  # `[0.99 * e + 0.01 * p for ...]`: each element
        return node.with_changes(elt=detach_value(node.elt))
    if isinstance(node, cst.DictComp):
        return node.with_changes(value=detach_value(node.value))
    if isinstance(node, _LITERAL) or isinstance(node, cst.Name) and node.value in {"None", "True", "False"}:
        return node
    return detached(node)


def _container(node) -> str | None:
    """The name a store goes into: `history["loss"].append(x)` stores into `history`."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return dotted(node)


def _stored(small, names) -> dict:
    """{value node: its detached form} for the values `small` stores into one of `names`."""
    wanted = (lambda n: not names or n in names)
    if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None:
        targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
        if len(targets) != 1:
            return {}
        target, value = targets[0], small.value
        if isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) and len(target.elements) == len(value.elements):
            return {v.value: detach_value(v.value) for t, v in zip(target.elements, value.elements)
                    if wanted(dotted(t.value))}
        base = target.value if isinstance(target, cst.Subscript) else target
        return {value: detach_value(value)} if wanted(dotted(base)) else {}
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        call = small.value
        func = call.func
        positional = [a for a in call.args if a.keyword is None and not a.star]
        if isinstance(func, cst.Attribute) and func.attr.value in _STORING and positional and wanted(_container(func.value)):
            arg = positional[-1].value
            return {arg: detach_value(arg)}
        named = _named(call, positional)
        if named is not None and wanted(named[0]):
            return {named[1]: detach_value(named[1])}
        for inner in (c for a in call.args for c in calls_in(a.value)):  # a hook written as a lambda: `register_forward_hook(lambda m, i, o: acts.append(o))`
            f, args = inner.func, [a for a in inner.args if a.keyword is None and not a.star]
            if isinstance(f, cst.Attribute) and f.attr.value in _STORING and args and names and wanted(dotted(f.value)):
                return {args[-1].value: detach_value(args[-1].value)}
    return {}


def _named(call: cst.Call, positional: list) -> tuple[str, cst.BaseExpression] | None:
    """(`obj.attr`, value) of `setattr(obj, "attr", v)` / `self.register_buffer("attr", v)`: the
    named stores the evidence reads (`evidence.named_stores`)."""
    func = call.func
    if isinstance(func, cst.Name) and func.value == "setattr" and len(positional) == 3:
        obj, key, value = (a.value for a in positional)
    elif isinstance(func, cst.Attribute) and dotted(func.value) == "self" and len(positional) >= 2 \
            and STORING.search(func.attr.value):
        obj, key, value = func.value, positional[0].value, positional[1].value
    else:
        return None
    if not isinstance(key, cst.SimpleString) or not dotted(obj):
        return None
    return f"{dotted(obj)}.{key.evaluated_value}", value


def detached_dict(node: cst.BaseExpression) -> cst.BaseExpression:
    """`{k: v.detach() if torch.is_tensor(v) else v for k, v in d.items()}`: a dict of a step's
    results (a loss, its predictions, a sample count) kept without their graphs."""
    return expr(f"{{k: v.detach() if torch.is_tensor(v) else v for k, v in {code_of(node)}.items()}}")


CONTAINERS = ("namedtuple", "tuple", "list", "dict")


def items_detached(code: str, held: str) -> str | None:
    """`code` (a state held as the runtime saw it: "namedtuple", "dict>tuple", ...) rebuilt
    with each tensor detached and each container kept as it was; None for another kind."""
    kinds = held.split(">")
    if not all(k in CONTAINERS for k in kinds):
        return None
    names = iter(n for n in ("s", "t", "u", "w", "z") if n != code)

    def rebuilt(value: str, level: int) -> str:
        if level == len(kinds):
            return f"{value}.detach()"
        item = next(names)
        inner = rebuilt(item, level + 1)
        return {"namedtuple": f"{value}._make({inner} for {item} in {value})",
                "tuple": f"tuple({inner} for {item} in {value})",
                "list": f"[{inner} for {item} in {value}]",
                "dict": f"{{k{level or ''}: {inner} for k{level or ''}, {item} in {value}.items()}}"}[kinds[level]]
    return rebuilt(code, 0)


def add_detach(source: str, *, line: int, names=(), reads: bool = False, dicts=(), containers=(), held: str = "") -> str | None:
    """`containers`: (name, how it holds its tensors) of read names the runtime saw holding
    containers of tensors ("namedtuple", "dict>tuple": see `items_detached`); `held`: the same
    for the value stored (a dict of tensors appended to a list)."""
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    small = only_small(stmt)
    if small is None:
        if stmt is None or not names or reads or held:
            return None
        # a line of several statements (`losses.append(loss); preds.append(out)`): each named store
        mapping = {k: v for each in stmt.body for k, v in _stored(each, set(names)).items()}
    elif reads:
        value = getattr(small, "value", None)
        if value is None or not names:
            return None
        kinds = {n: items_detached(n, held) for n, held in containers}
        if None in kinds.values():
            return None
        done = {n for n, text in kinds.items() if text in code_of(value)}  # applied already
        mapping = {n: detached_dict(n) if getattr(n, "value", None) in dicts
                   else expr(kinds[code_of(n)]) if code_of(n) in kinds else detached(n)
                   for n in reads_of(value, set(names) - done)}
    else:
        mapping = _stored(small, set(names))
        if held == "dict":  # a step's results (a loss beside counts and nested logs): its tensors detached
            if not all(isinstance(k, cst.Name) for k in mapping):
                return None
            mapping = {k: detached_dict(k) for k in mapping}
        elif held in ("list", "tuple") and all(isinstance(k, (cst.ListComp, cst.GeneratorExp)) for k in mapping):
            pass  # a comprehension of tensors: each element detached already (`detach_value`)
        elif held:  # the runtime saw a container there: each of its tensors detached, the container kept
            kinds = {k: items_detached(code_of(k), held) for k in mapping if isinstance(k, cst.Name)}
            if len(kinds) != len(mapping) or None in kinds.values():
                return None
            mapping = {k: expr(text) for k, text in kinds.items()}
    mapping = {k: v for k, v in mapping.items() if v is not k}
    if not mapping:
        return None
    return tree.replace(stmt, swap(stmt, mapping))


def add_detach_each(source: str, edits) -> str | None:
    """`add_detach` at several lines, all or none: `edits` are (line, names, reads[, dicts])."""
    out = source
    for line, names, reads, *dicts in edits:
        out = add_detach(out, line=line, names=names, reads=reads, dicts=dicts[0] if dicts else ())
        if out is None:
            return None
    return out if out != source else None

