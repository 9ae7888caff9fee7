"""Putting a fix into the notebook or a file: `%gradfix` and `nb-autograd fix`."""
from __future__ import annotations

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


def parse_gradfix_args(line: str) -> tuple[int, bool]:
    words = line.split()
    unknown = [w for w in words if not w.isdigit() and w != "replace"]
    if unknown:
        raise ValueError(f"unexpected {' '.join(unknown)!r}; usage: %gradfix [N] [replace]")
    numbers = [int(w) for w in words if w.isdigit()]
    return (numbers[0] if numbers else 1), "replace" in words


def gradfix_magic(shell, report: Report | None, line: str) -> None:
    """set_next_input during the magic's own run travels with its execute_reply, so the
    front end (JupyterLab, Notebook 7, VS Code, terminal) inserts or replaces the cell."""
    try:
        index, replace = parse_gradfix_args(line)
    except ValueError as exc:
        print(f"nb_autograd: {exc}", file=sys.stderr)
        return
    fix = pick_fix(report, index)
    if isinstance(fix, str):
        print(fix, file=sys.stderr)
        return
    shell.set_next_input(fix.patched_source.rstrip("\n"), replace=replace)
    print(text("ui.fix_placed", report.lang, index=index, title=fix.title,
               where=text("ui.replaced" if replace else "ui.below", report.lang)))
