"""Static HTML (no JavaScript) for exported and shared notebooks (nbconvert, GitHub,
nbviewer) and front ends without widgets: the cause, its place, the explanation with its
Markdown rendered, every fix's diff and the graph as inline SVG. Every string from the
user's code, tensors or messages goes through `escape`."""
from __future__ import annotations

import re
from html import escape

from ..explain import place_words
from ..i18n import text
from ..report import Diagnosis, Report

MARKER = "nba-static"  # the live widget hides the static copy shown just before it
STYLE = """<style>
.nba{font-family:var(--jp-ui-font-family,sans-serif);font-size:13px;color:var(--jp-ui-font-color0,#1a1a1a);
 background:var(--jp-layout-color1,#fff);border-left:4px solid var(--jp-warn-color0,#d9822b);padding:6px 12px;margin:4px 0}
.nba h4{margin:4px 0}.nba code,.nba pre{font-family:var(--jp-code-font-family,monospace)}
.nba .cause{opacity:.7;font-size:11px}.nba .src{background:var(--jp-layout-color2,#f3f3f3);padding:2px 6px}
.nba .add{color:var(--jp-success-color0,#1a7f37)}.nba .del{color:var(--jp-error-color0,#cf222e)}
.nba pre{background:var(--jp-layout-color2,#f6f8fa);padding:4px 8px;overflow:auto}
.nba .graph svg{max-width:100%;height:auto}
</style>"""
_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def markdown(words: str) -> str:
    """The catalogs' Markdown (`code`, **bold**) as HTML, after escaping."""
    return _BOLD.sub(r"<b>\1</b>", _CODE.sub(r"<code>\1</code>", escape(words)))


def _diff(diff: str) -> str:
    rows = []
    for line in diff.splitlines()[2:]:
        cls = "add" if line.startswith("+") else "del" if line.startswith("-") else ""
        rows.append(f'<span class="{cls}">{escape(line)}</span>')
    return "<pre>" + "\n".join(rows) + "</pre>"


def _source_line(report: Report, d: Diagnosis) -> str:
    lines = (d.context or report.source).splitlines()
    line = d.place.line if d.context else d.line
    return escape(lines[line - 1].strip()) if line and 0 < line <= len(lines) else ""


def _diagnosis(report: Report, d: Diagnosis, lang: str) -> str:
    parts = [f'<h4>{escape(d.title)} <span class="cause">{escape(d.cause)}</span></h4>']
    if d.line:
        placed = d.place.line and (d.place.cell is not None or d.place.file)
        where = place_words(d.place, lang) if placed else f"{text('ui.line', lang)} {d.line}"
        parts.append(f'<div>{escape(text("ui.where", lang))}: {escape(where)}: '
                     f'<code class="src">{_source_line(report, d)}</code></div>')
    parts.append(f"<p>{markdown(d.what)}</p><p>{markdown(d.why)}</p>")
    if d.fixes:
        items = "".join(f"<li>{markdown(f.title)}{_diff(f.diff)}" + (f"<i>{markdown(f.note)}</i>" if f.note else "")
                        + "</li>" for f in d.fixes)
        parts.append(f"<div><b>{escape(text('ui.fixes', lang))}</b><ol>{items}</ol></div>")
    elif d.hint:
        parts.append(f"<p>{markdown(text('ui.no_fix', lang, hint=d.hint))}</p>")
    return "".join(parts)


def render(report: Report, svg: str = "", static: bool = False) -> str:
    """`svg`: the graph as the widget lays it out; `static`: worded for a page read without a
    kernel (an export), marked so that a live widget shown after it can hide it."""
    lang = report.lang
    if report.error and not report.diagnoses:
        body = f"<p>{markdown(text('ui.unknown', lang))}</p><p>{markdown(report.unrecognised)}</p>"
    else:
        body = "".join(_diagnosis(report, d, lang) for d in (*report.diagnoses, *report.findings))
    heading = text("ui.heading" if report.error else "ui.silent_heading", lang)
    trace = f"<p><i>{escape(text('ui.trace', lang))}:</i> {markdown(report.trace)}</p>" if report.trace else ""
    graph = f'<details class="graph" open><summary>{escape(text("ui.graph", lang))}</summary>{svg}</details>' if svg else ""
    has_fix = any(d.fixes for d in (*report.diagnoses, *report.findings))
    hint = f"<p>{markdown(text('ui.static_hint' if static else 'ui.apply_hint', lang))}</p>" if has_fix else ""
    marker = f" {MARKER}" if static else ""
    return f'{STYLE}<div class="nba{marker}"><b>{escape(heading)}</b>{body}{trace}{graph}{hint}</div>'


def markdown_text(report: Report) -> str:
    """The same explanation as Markdown, for `nbconvert --to markdown` and text readers."""
    lang = report.lang
    out = [f"**{text('ui.heading' if report.error else 'ui.silent_heading', lang)}**", ""]
    for d in (*report.diagnoses, *report.findings):
        out += [f"#### {d.title} (`{d.cause}`)", ""]
        if d.line:
            placed = d.place.line and (d.place.cell is not None or d.place.file)
            where = place_words(d.place, lang) if placed else f"{text('ui.line', lang)} {d.line}"
            out += [f"{text('ui.where', lang)}: {where}", ""]
        out += [d.what, "", d.why, ""]
        for i, f in enumerate(d.fixes, 1):
            out += [f"{i}. {f.title}", "", "```diff", f.diff.rstrip("\n"), "```", ""]
    if report.error and not report.diagnoses:
        out += [text("ui.unknown", lang), "", report.unrecognised, ""]
    return "\n".join(out)
