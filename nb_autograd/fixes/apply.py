"""Putting a fix into the notebook or a file: `%gradfix` and `nb-autograd fix`."""
from __future__ import annotations

import dataclasses
import sys

from ..i18n import text
from ..report import Fix, Report


def pick_fix(report: Report | None, index: int) -> Fix | str:
    """Fix number `index` (1-based) of the top diagnosis, or a message saying why not."""
    if report is None or report.top is None:
        return text("ui.no_report", report.lang if report else None)
    fixes = report.top.fixes
    if not fixes:
        return text("ui.no_fix", report.lang, hint=report.top.hint)
    if not 1 <= index <= len(fixes):
        return text("ui.bad_index", report.lang, index=index, count=len(fixes))
    return fixes[index - 1]


def parse_gradfix_args(line: str) -> tuple[int, bool, bool]:
    """(fix number, replace this cell, write a user file)."""
    words = line.split()
    unknown = [w for w in words if not w.isdigit() and w not in ("replace", "--write")]
    if unknown:
        raise ValueError(f"unexpected {' '.join(unknown)!r}; usage: %gradfix [N] [replace] [--write]")
    numbers = [int(w) for w in words if w.isdigit()]
    return (numbers[0] if numbers else 1), "replace" in words, "--write" in words


def write_file_fix(fix: Fix, lang: str, index: int, write: bool) -> None:
    """A user file is never written unasked: show the diff; write only with --write. The other
    files a fix changes (a moved statement) are shown and written with it, all or none."""
    edits = [fix, *(e for e in fix.also if e.target.file)]
    for edit in edits:
        print(edit.diff)
    if not write:
        print(text("ui.fix_file", lang, file=", ".join(e.target.file for e in edits), index=index))
        return
    for edit in edits:
        with open(edit.target.file, "w", encoding="utf-8") as f:
            f.write(edit.patched_source)
        print(text("ui.fix_written", lang, file=edit.target.file))


def gradfix_magic(shell, report: Report | None, line: str) -> None:
    """set_next_input during the magic's own run travels with its execute_reply, so the
    front end (JupyterLab, Notebook 7, VS Code, terminal) inserts or replaces the cell."""
    try:
        index, replace, write = parse_gradfix_args(line)
    except ValueError as exc:
        print(f"nb_autograd: {exc}", file=sys.stderr)
        return
    fix = pick_fix(report, index)
    if isinstance(fix, str):
        print(fix, file=sys.stderr)
        return
    if fix.target.file:
        write_file_fix(fix, report.lang, index, write)
    else:
        shell.set_next_input(fix.patched_source.rstrip("\n"), replace=replace)
        print(text("ui.fix_placed", report.lang, index=index, title=fix.title,
                   where=text("ui.replaced" if replace else "ui.below", report.lang)))
        if fix.target.cell is not None:
            print(text("ui.fix_for_cell", report.lang, cell=fix.target.cell, cell_id=fix.target.cell_id or "?"))
        files = [e for e in fix.also if e.target.file]
        if files:  # the cell is placed; the files it also changes follow the file rule
            write_file_fix(replace_target(fix, files), report.lang, index, write)
    for edit in fix.also:  # set_next_input places one cell: the other cells are shown, to be put by hand
        if not edit.target.file:
            print(text("ui.fix_also", report.lang, unit=f"In [{edit.target.cell}]", cell_id=edit.target.cell_id or "?",
                       diff=edit.diff))


def replace_target(fix: Fix, files: list) -> Fix:
    """The fix seen from its first file edit, with the other file edits as its `also`."""
    first = files[0]
    return dataclasses.replace(fix, target=first.target, patched_source=first.patched_source, diff=first.diff,
                               also=tuple(files[1:]))
