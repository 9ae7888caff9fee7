"""Move the assignment at a line to the top of a later loop's body, so each iteration builds
(and frees) its own graph for it instead of sharing one that the first backward frees."""
from __future__ import annotations

import libcst as cst

from .cst import LOOP, facts_of, load, only_small, with_body


def move_into_loop(source: str, *, line: int, loop_line: int) -> str | None:
    tree = load(source)
    stmt = tree and tree.statement(line, cst.SimpleStatementLine)
    loop = tree and tree.statement(loop_line, LOOP)
    if only_small(stmt, (cst.Assign, cst.AnnAssign)) is None or loop is None:
        return None
    here, there = tree.block(stmt), tree.block(loop)
    if here is None or there is None or here[0] is not there[0] or here[1] >= there[1]:
        return None
    if not isinstance(loop.body, cst.IndentedBlock) or loop.orelse is not None:
        return None
    siblings = list(here[0].body)
    own, between = facts_of([stmt]), facts_of(siblings[here[1] + 1:there[1]])
    in_loop = facts_of([loop])
    targets = {t for a in own.assigns for t in a.targets}
    reads = {n for a in own.assigns for n in a.reads}
    assigned_later = {t for a in (*between.assigns, *in_loop.assigns) for t in a.targets}
    if not own.parsed or targets & {n for n, _ in between.reads} or (reads | targets) & assigned_later:
        return None
    new_loop = loop.with_changes(body=loop.body.with_changes(body=[stmt, *loop.body.body]))
    siblings[there[1]] = new_loop
    del siblings[here[1]]
    return with_body(tree, here[0], siblings)
