"""Plain text for terminal IPython and the command line."""
from __future__ import annotations

import textwrap

from ..i18n import text
from ..report import Diagnosis, Report


def _source_line(report: Report, d: Diagnosis) -> str:
    """The diagnosis's line as written, in the cell or file it is in."""
    line, lines = d.line, (d.context or report.source).splitlines()
    return lines[line - 1].strip() if line and 0 < line <= len(lines) else ""


def _diagnosis(report: Report, d: Diagnosis, rank: int, lang: str, show_fixes: bool) -> list[str]:
    out = [f"{rank}. {d.title}  [{d.cause}]"]
    if d.line:
        out.append(f"   {text('ui.line', lang)} {d.line} | {_source_line(report, d)}")
    for part in (d.what, d.why):
        out += textwrap.wrap(part, 88, initial_indent="   ", subsequent_indent="   ")
    if show_fixes and d.fixes:
        out.append(f"   {text('ui.fixes', lang)}:")
        for i, fix in enumerate(d.fixes, 1):
            out.append(f"    {i}) {fix.title}")
            out += ["       " + l for l in fix.diff.splitlines()[2:] if l[:1] in "+-@"][:12]
            if fix.note:
                out.append(f"       ({fix.note})")
    elif show_fixes and d.hint:
        out.append("   " + text("ui.no_fix", lang, hint=d.hint))
    return out


def render(report: Report, show_fixes: bool = True, hint: str = "ui.apply_hint") -> str:
    """`hint`: how to apply a fix where the text is read (`%gradfix` in IPython; the command
    line has its own)."""
    lang = report.lang
    if report.error and not report.diagnoses:
        lines = [text('ui.heading', lang), text('ui.unknown', lang)]
        return "\n".join(lines + textwrap.wrap(report.unrecognised, 88))
    out = [text("ui.heading" if report.error else "ui.silent_heading", lang)]
    for rank, d in enumerate((*report.diagnoses, *report.findings), 1):
        out += _diagnosis(report, d, rank, lang, show_fixes)
    if report.trace:
        out += textwrap.wrap(f"{text('ui.trace', lang)}: {report.trace}", 88)
    if report.diagnoses and report.diagnoses[0].fixes:
        out.append(text(hint, lang))
    return "\n".join(out)


def widget_line(report: Report) -> str:
    """The one line a widget output carries as text (the static copy above it has the rest)."""
    lang = report.lang
    heading = text("ui.heading" if report.error else "ui.silent_heading", report.lang)
    first = next(iter((*report.diagnoses, *report.findings)), None)
    return f"{heading}: {first.title} [{first.cause}]" if first else f"{heading}: {text('ui.unknown', lang)}"
