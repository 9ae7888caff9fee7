"""Plumbing for the family-B codemods: apply a LibCST transformer that only touches code at
given lines, and wrap the result as a Fix (with a diff). Returns None whenever the edit did
not happen or would not parse: a fix we cannot stand behind is not offered.

(To merge into fixes/cst.py once that shared module lands.)"""
from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ..report import Fix


class LineTransformer(cst.CSTTransformer):
    """A transformer that knows each node's first line (`self.line(node)`)."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def line(self, node: cst.CSTNode) -> int:
        try:
            return self.get_metadata(PositionProvider, node).start.line
        except KeyError:
            return -1

    def end_line(self, node: cst.CSTNode) -> int:
        try:
            return self.get_metadata(PositionProvider, node).end.line
        except KeyError:
            return -1


class BodyEditor(LineTransformer):
    """Calls `edit(statements, lines)` on every statement list (module and indented blocks);
    `edit` returns a new list, or None to leave that body alone."""

    def __init__(self, edit: Callable[[list, list[int]], list | None]):
        super().__init__()
        self.edit = edit
        self.done = False

    def _apply(self, original, updated):
        lines = [self.line(s) for s in original.body]
        new = self.edit(list(updated.body), lines)
        if new is None:
            return updated
        self.done = True
        return updated.with_changes(body=new)

    def leave_Module(self, original, updated):
        return self._apply(original, updated)

    def leave_IndentedBlock(self, original, updated):
        return self._apply(original, updated)


def transform(source: str, transformer: cst.CSTTransformer) -> str | None:
    try:
        module = MetadataWrapper(cst.parse_module(source)).visit(transformer)
    except (cst.ParserSyntaxError, Exception):  # a codemod never breaks a diagnosis
        return None
    patched = module.code
    return patched if patched != source else None


def diff(before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), "cell", "cell (fixed)"))


def make_fix(kind: str, title: str, source: str, patched: str | None, note: str = "") -> Fix | None:
    if not patched or patched == source:
        return None
    try:
        compile(patched, "<fix>", "exec")
    except SyntaxError:
        return None
    return Fix(kind=kind, title=title, patched_source=patched, diff=diff(source, patched), note=note)


def fixes_of(*candidates: Fix | None) -> tuple[Fix, ...]:
    """Drop the fixes that could not be made, and repeats of the same patch."""
    seen, out = set(), []
    for fix in candidates:
        if fix is not None and fix.patched_source not in seen:
            seen.add(fix.patched_source)
            out.append(fix)
    return tuple(out)


def statement(code: str) -> cst.BaseStatement:
    return cst.parse_statement(code)


def index_at(lines: Sequence[int], wanted: int) -> int | None:
    """Index of the statement that starts at line `wanted` in one body, or None."""
    return next((i for i, line in enumerate(lines) if line == wanted), None)
