"""`x[0] = v` writes into a tensor autograd saved: rebind `x = x.clone()` just before it, so
the write goes into a copy and the saved `x` keeps its version. When the written value reads
`x` itself inside a loop (`T[b][t] = conv(T[b][t])`), every later write would change what the
earlier reads saved, clone or not: before the loop the tensor is kept for reading (`T_in = T`,
which its producer may have saved too) and the loop writes into one copy (`T = T.clone()`)."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, load, reads_of, swap, with_body

_LOOPS = (cst.For, cst.While)


def _outer_loop(tree, stmt, name: str):
    """The outermost loop around `stmt`, inside its function, that does not rebind `name`."""
    found, node = None, stmt
    while (node := tree.enclosing(node, (*_LOOPS, cst.FunctionDef))) is not None and isinstance(node, _LOOPS):
        if any(isinstance(n, cst.AssignTarget) and isinstance(n.target, cst.Name) and n.target.value == name
               and tree.inside(n, node) for n in tree.positions):
            break
        found = node
    return found


def _read_copy(tree, stmt, name: str) -> str | None:
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    if not isinstance(small, cst.Assign) or not reads_of(small.value, {name}):
        return None
    loop = _outer_loop(tree, stmt, name)
    where = loop and tree.block(loop)
    if not where:
        return None
    taken = {n.value for n in tree.positions if isinstance(n, cst.Name)}
    copy = next(c for c in (f"{name}_in", *(f"{name}_in{k}" for k in range(2, 99))) if c not in taken)
    reading = swap(small.value, {r: cst.Name(copy) for r in reads_of(small.value, {name})})
    block, i = where
    new_loop = swap(loop, {small: small.with_changes(value=reading)})
    body = list(block.body)
    keep = [cst.parse_statement(f"{copy} = {name}\n"), cst.parse_statement(f"{name} = {name}.clone()\n")]
    return with_body(tree, block, body[:i] + keep + [new_loop] + body[i + 1:])


def _next_step(tree, stmt, name: str) -> str | None:
    """`H[t + 1] = f(H[t])` in a loop: a recurrence written into one tensor. Each step reads
    what the last one wrote, so no copy kept for reading will do; the value is computed
    first, then written into a fresh copy (`H_next = f(H[t])`, `H = H.clone()`, `H[t + 1] = H_next`):
    what each step saved is never written again."""
    small = stmt.body[0] if len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign) else None
    target = small.targets[0].target if small is not None and len(small.targets) == 1 else None
    if not isinstance(target, cst.Subscript) or code_of(target.value) != name or tree.enclosing(stmt, _LOOPS) is None:
        return None
    reads = [tree.parents.get(r) for r in reads_of(small.value, {name})]
    if not reads or all(isinstance(r, cst.Subscript) and code_of(r) == code_of(target) for r in reads):
        return None  # each position read only where it is written: a copy kept for reading does
    taken = {n.value for n in tree.positions if isinstance(n, cst.Name)}
    fresh = next(c for c in (f"{name}_next", *(f"{name}_next{k}" for k in range(2, 99))) if c not in taken)
    block, i = tree.block(stmt)
    steps = [cst.parse_statement(f"{fresh} = {code_of(small.value)}\n").with_changes(leading_lines=stmt.leading_lines),
             cst.parse_statement(f"{name} = {name}.clone()\n"), cst.parse_statement(f"{code_of(target)} = {fresh}\n")]
    body = list(block.body)
    return with_body(tree, block, body[:i] + steps + body[i + 1:])


def clone_before_write(source: str, line: int, name: str) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line)
    where = stmt and tree.block(stmt)
    if not where or not isinstance(stmt, cst.SimpleStatementLine) or not reads_of(stmt, {name}):
        return None  # not the write (re-applied after lines moved)
    block, i = where
    clone = cst.parse_statement(f"{name} = {name}.clone()\n")
    body = list(block.body)
    if any(code_of(s).strip() == code_of(clone).strip() for s in body[max(i - 1, 0):i + 2]):
        return None  # already cloned
    if name.isidentifier() and (patched := _next_step(tree, stmt, name) or _read_copy(tree, stmt, name)) is not None:
        return patched
    return with_body(tree, block, body[:i] + [clone] + body[i:])
