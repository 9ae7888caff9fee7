"""`torch.autograd.grad(loss, params)` after `loss.backward()` already ran on that loss (a
callback measuring gradient norms): backward() put those very gradients in each `p.grad`, so
read them there instead of walking the freed graph again. (With gradient accumulation `.grad`
also holds earlier steps' parts: then it is what the next optimizer step will use anyway.)"""
from __future__ import annotations

import libcst as cst

from .cst import autograd_function, backward_call, code_of, dotted, load, only_small

_SEQUENCE_CALLS = ("list", "tuple", "parameters")


def _arg(call: cst.Call, index: int, keyword: str):
    named = [a for a in call.args if a.keyword and a.keyword.value == keyword]
    plain = [a for a in call.args if not a.keyword]
    return named[0].value if named else plain[index].value if len(plain) > index else None


def _is_sequence(tree, node) -> bool:
    """A list of tensors for sure: a literal, a comprehension, list()/tuple(), .parameters(),
    or a name only ever assigned one of those."""
    if isinstance(node, (cst.List, cst.Tuple, cst.ListComp, cst.GeneratorExp)):
        return True
    if isinstance(node, cst.Call):
        return (dotted(node.func) or "").split(".")[-1] in _SEQUENCE_CALLS
    if isinstance(node, cst.Name):
        values = [n.value for n in tree.positions if isinstance(n, cst.Assign) and len(n.targets) == 1
                  and isinstance(n.targets[0].target, cst.Name) and n.targets[0].target.value == node.value]
        return bool(values) and all(_is_sequence(tree, v) for v in values)
    return False


def read_stored_grads(source: str, *, line: int) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    small = only_small(stmt, cst.Assign)
    call = backward_call(small.value, tree) if small else None
    if call is None or autograd_function(call, tree) != "grad":
        return None
    allowed = {"retain_graph", "allow_unused"}
    if any(a.keyword and a.keyword.value not in allowed for a in call.args) or len([a for a in call.args if not a.keyword]) > 2:
        return None  # create_graph, grad_outputs: not what backward() stored
    inputs = _arg(call, 1, "inputs")
    if inputs is None or not _is_sequence(tree, inputs):
        return None  # a single tensor or something unknown: iterating it would be wrong
    if isinstance(inputs, (cst.List, cst.Tuple)):
        value = cst.parse_expression("(" + "".join(f"{code_of(e.value)}.grad, " for e in inputs.elements) + ")")
    else:
        value = cst.parse_expression(f"[p.grad for p in {code_of(inputs)}]")
    return tree.replace(small, small.with_changes(value=value))
