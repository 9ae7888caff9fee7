"""Report -> the plain dict the widget's front end renders (strings and ints only). The
front end puts every string in with textContent, so nothing here is markup."""
from __future__ import annotations

from ..report import Diagnosis, Report
from .labels import words

WHOLE_CELL = 25   # cells up to this many lines are shown whole
CONTEXT = 1       # lines around each involved line otherwise


def cell_lines(source: str, cause: int | None, related: tuple = ()) -> list[dict]:
    """The cell's lines involved in a diagnosis; role 'cause' marks the root-cause line,
    'related' the others (the backward, ...); {'gap': True} stands for skipped lines."""
    lines = source.splitlines()
    roles = {line: role for role, line in related if isinstance(line, int)}
    roles = {line: "related" for line in roles}
    if cause:
        roles[cause] = "cause"
    if len(lines) <= WHOLE_CELL:
        keep = set(range(1, len(lines) + 1))
    else:
        keep = {n for line in roles for n in range(line - CONTEXT, line + CONTEXT + 1) if 1 <= n <= len(lines)}
    out, last = [], 0
    for n in sorted(keep):
        if n > last + 1 and out:
            out.append({"gap": True})
        out.append({"n": n, "text": lines[n - 1], "role": roles.get(n, "")})
        last = n
    return out


def _target(report: Report, fix) -> str:
    """"In [3]" when a fix is for another cell than the failing one ("" for that one)."""
    place = fix.target
    if place.file:
        return place.file.rsplit("/", 1)[-1]
    if place.cell is not None and place.cell_id != report.cell_id:
        return f"In [{place.cell}]"
    return ""


def diagnosis(report: Report, d: Diagnosis, top: bool) -> dict:
    return {
        "cause": d.cause, "title": d.title, "what": d.what or d.explanation, "why": d.why,
        "line": d.line, "hint": d.hint, "top": top,
        "lines": cell_lines(d.context or report.source, d.line, d.related),
        "fixes": [{"kind": f.kind, "title": f.title, "diff": f.diff, "source": f.patched_source.rstrip("\n"),
                   "note": f.note, "magic": f"%gradfix {i}" if top else "", "cell_id": f.target.cell_id or "",
                   "file": f.target.file or "", "target": _target(report, f),
                   "also": [{"diff": e.diff, "source": e.patched_source.rstrip("\n"), "cell_id": e.target.cell_id or "",
                             "file": e.target.file or "", "target": _target(report, e)} for e in f.also]}
                  for i, f in enumerate(d.fixes, 1)],
    }


def explanation(report: Report, can_switch: bool = True) -> dict:
    items = [diagnosis(report, d, i == 0 and bool(report.diagnoses)) for i, d in
             enumerate((*report.diagnoses, *report.findings))]
    return {"lang": report.lang, "words": words(report.lang), "error": report.error or "",
            "cell_id": report.cell_id or "", "trace": report.trace, "diagnoses": items,
            "unknown": bool(report.error and not report.diagnoses), "unrecognised": report.unrecognised,
            "can_switch": can_switch,
            "silent": report.error is None}
