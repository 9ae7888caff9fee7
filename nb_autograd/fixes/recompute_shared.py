"""Give the second loss a fresh copy of the shared tensor: its reads of `name` on the given
lines become the expression that made it (`criterion(output, y)` -> `criterion(model(x), y)`).
For a second pass that must run the forward again (SAM's second step), and for a first loss
whose only path to the parameters goes through the shared tensor, where detaching it there
would leave that loss nothing to train."""
from __future__ import annotations

import libcst as cst

from .cst import calls_in, detached, dotted, load, only_small, reads_of, swap


def recompute_shared(source: str, *, name: str, made_line: int, lines, detach=(), detach_copy=(),
                     rebuild=()) -> str | None:
    """`detach`: inputs of the making expression whose own graph the first backward also freed
    (a GAN's `fake`): the first use gets them detached, so that backward keeps their graph for
    the second loss's fresh copy (`out = D(fake.detach())` ... `criterion(D(fake), y)`).
    `detach_copy`: such inputs that the first loss is meant to train through (the generator
    step came first): the fresh copy takes them detached instead (`criterion(D(fake.detach()), y)`).
    `rebuild`: (name, line) of such inputs the second loss trains through too, latest first: the
    fresh copy computes them again as well (`netD(netG.decoder(netG.sampler(netG.encoder(x))))`)."""
    tree = load(source)
    made = only_small(tree and tree.statement(made_line, cst.SimpleStatementLine), cst.Assign)
    if made is None or len(made.targets) != 1 or not calls_in(made.value):
        return None
    value = _part(made.targets[0].target, made.value, name)
    if value is None:
        return None
    for input_name, input_line in rebuild:
        making = only_small(tree.statement(input_line, cst.SimpleStatementLine), cst.Assign)
        part = _part(making.targets[0].target, making.value, input_name) if making and len(making.targets) == 1 else None
        if part is None or input_line >= made_line:
            return None
        value = swap(value, {node: part for node in reads_of(value, {input_name})})
    value = swap(value, {node: detached(node) for node in reads_of(value, set(detach_copy))})
    if not isinstance(value, (cst.Call, cst.Name, cst.Attribute, cst.Subscript)):
        value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    mapping = {}
    for line in lines:
        small = only_small(tree.statement(line, cst.SimpleStatementLine), (cst.Assign, cst.AnnAssign, cst.Expr))
        if small is None or small.value is None or line <= made_line:
            continue
        for node in reads_of(small.value, {name}):
            mapping[node] = value
    if not mapping:
        return None
    for node in reads_of(made.value, set(detach)):  # (the first use keeps its own value)
        mapping[node] = detached(node)
    return swap(tree.module, mapping).code


def _part(target: cst.BaseExpression, value: cst.BaseExpression, name: str) -> cst.BaseExpression | None:
    """What `name` gets from `target = value`: the value, or `value[k]` for the k-th name of a
    tuple target (`logits, loss = model(x, y)` -> `model(x, y)[0]`)."""
    if dotted(target) == name:
        return value
    if isinstance(target, (cst.Tuple, cst.List)):
        names = [dotted(e.value) if not isinstance(e, cst.StarredElement) else None for e in target.elements]
        if name in names and None not in names:
            return cst.Subscript(value, [cst.SubscriptElement(cst.Index(cst.Integer(str(names.index(name)))))])
    return None

