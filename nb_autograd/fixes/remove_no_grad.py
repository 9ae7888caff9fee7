"""Take the computation out of `with torch.no_grad():` (its body runs with grad tracking
again) when the result is meant to be trained; or drop a `@torch.no_grad()` decorator from
a helper whose result is trained and that cannot be inlined at that call (its evaluation
callers still get numbers from it; they merely build a graph they never use); or drop a
`torch.set_grad_enabled(False)` statement that turned tracking off for the whole session."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, load, with_body


def _undecorate(tree, line: int) -> str | None:
    fn = next((n for n in tree.positions if isinstance(n, cst.FunctionDef)
               and any(tree.line(d) == line for d in n.decorators)), None)
    if fn is None:
        return None
    kept = [d for d in fn.decorators if not (tree.line(d) == line and code_of(d.decorator).endswith("no_grad()"))]
    if len(kept) == len(fn.decorators):
        return None
    leading = fn.decorators[0].leading_lines if fn.decorators else ()
    if kept:
        kept[0] = kept[0].with_changes(leading_lines=leading)
        return tree.replace(fn, fn.with_changes(decorators=kept))
    return tree.replace(fn, fn.with_changes(decorators=kept, leading_lines=[*fn.leading_lines, *leading]))


def _drop_grad_off(tree, line: int) -> str | None:
    stmt = tree.statement(line, cst.SimpleStatementLine)
    where = stmt and tree.block(stmt)
    if not where or len(stmt.body) != 1 or not code_of(stmt.body[0]).replace(" ", "").endswith("set_grad_enabled(False)"):
        return None
    block, i = where
    rest = list(block.body[i + 1:])
    if rest:
        rest[0] = rest[0].with_changes(leading_lines=stmt.leading_lines)
    return with_body(tree, block, list(block.body[:i]) + rest)


def remove_no_grad(source: str, with_line: int, from_line: int | None = None) -> str | None:
    """`from_line`: only the block's statements from that line on leave it (the loss computed
    after a manual update), the ones above stay under no_grad."""
    tree = load(source)
    if tree and tree.statement(with_line, cst.With) is None:
        return _undecorate(tree, with_line) or _drop_grad_off(tree, with_line)
    stmt = tree and tree.statement(with_line, cst.With)
    where = stmt and tree.block(stmt)
    if not where or not isinstance(stmt.body, cst.IndentedBlock):
        return None
    block, i = where
    inner = list(stmt.body.body)
    if from_line is not None:
        start = next((k for k, st in enumerate(inner) if tree.line(st) >= from_line), None)
        if not start:  # nothing above it stays under no_grad (or nothing from there): not a split
            return None
        kept = stmt.with_changes(body=stmt.body.with_changes(body=inner[:start]))
        return with_body(tree, block, list(block.body[:i]) + [kept] + inner[start:] + list(block.body[i + 1:]))
    inner[0] = inner[0].with_changes(leading_lines=stmt.leading_lines)
    return with_body(tree, block, list(block.body[:i]) + inner + list(block.body[i + 1:]))
