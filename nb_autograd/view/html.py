"""Static HTML (no JavaScript) for notebooks, nbconvert and GitHub. Every string from the
user's code, tensors or messages goes through `escape`."""
from __future__ import annotations

from html import escape

from ..i18n import text
from ..report import Diagnosis, Report

STYLE = """<style>
.nba{font-family:var(--jp-ui-font-family,sans-serif);font-size:13px;color:var(--jp-ui-font-color0,#1a1a1a);
 background:var(--jp-layout-color1,#fff);border-left:4px solid var(--jp-warn-color0,#d9822b);padding:6px 12px;margin:4px 0}
.nba h4{margin:4px 0}.nba code,.nba pre{font-family:var(--jp-code-font-family,monospace)}
.nba .cause{opacity:.7;font-size:11px}.nba .src{background:var(--jp-layout-color2,#f3f3f3);padding:2px 6px}
.nba .add{color:var(--jp-success-color0,#1a7f37)}.nba .del{color:var(--jp-error-color0,#cf222e)}
.nba pre{background:var(--jp-layout-color2,#f6f8fa);padding:4px 8px;overflow:auto}
</style>"""


def _diff(diff: str) -> str:
    rows = []
    for line in diff.splitlines()[2:]:
        cls = "add" if line.startswith("+") else "del" if line.startswith("-") else ""
        rows.append(f'<span class="{cls}">{escape(line)}</span>')
    return "<pre>" + "\n".join(rows) + "</pre>"


def _diagnosis(report: Report, d: Diagnosis, lang: str) -> str:
    lines = report.source.splitlines()
    src = escape(lines[d.line - 1].strip()) if d.line and 0 < d.line <= len(lines) else ""
    parts = [f'<h4>{escape(d.title)} <span class="cause">{escape(d.cause)}</span></h4>']
    if d.line:
        parts.append(f'<div>{escape(text("ui.line", lang))} {d.line}: <code class="src">{src}</code></div>')
    parts.append(f"<p>{escape(d.what)}</p><p>{escape(d.why)}</p>")
    if d.fixes:
        items = "".join(f"<li>{escape(f.title)}{_diff(f.diff)}</li>" for f in d.fixes)
        parts.append(f"<div><b>{escape(text('ui.fixes', lang))}</b><ol>{items}</ol></div>")
    elif d.hint:
        parts.append(f"<p>{escape(text('ui.no_fix', lang, hint=d.hint))}</p>")
    return "".join(parts)


def render(report: Report) -> str:
    lang = report.lang
    if report.error and not report.diagnoses:
        body = f"<p>{escape(text('ui.unknown', lang))}</p><p>{escape(report.unrecognised)}</p>"
    else:
        body = "".join(_diagnosis(report, d, lang) for d in (*report.diagnoses, *report.findings))
    heading = text("ui.heading" if report.error else "ui.silent_heading", lang)
    trace = f"<p><i>{escape(text('ui.trace', lang))}:</i> {escape(report.trace)}</p>" if report.trace else ""
    hint = f"<p>{escape(text('ui.apply_hint', lang))}</p>" if report.top and report.top.fixes else ""
    return f'{STYLE}<div class="nba"><b>{escape(heading)}</b>{body}{trace}{hint}</div>'
