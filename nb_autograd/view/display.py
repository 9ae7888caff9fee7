"""Show the explanation: a static copy every reader can see (HTML, Markdown, text), then the
interactive widget where the front end runs one (it hides the static copy when it renders)."""
from __future__ import annotations

import sys

from ..report import Report
from . import html, text


def in_kernel(shell) -> bool:
    return shell is not None and getattr(shell, "kernel", None) is not None


def widget_for(report: Report):
    """The interactive widget, or None when anywidget is missing or building it failed:
    the static bundle is always a complete answer, so a widget problem never hides it."""
    try:
        from .widget import make_widget

        return make_widget(report)
    except Exception:
        return None


def show(report: Report, shell=None) -> None:
    if not in_kernel(shell):
        print(text.render(report), file=sys.stdout)
        return
    from IPython.display import display

    widget = widget_for(report)
    svg = (widget.graph or {}).get("svg", "") if widget is not None else ""
    # the static copy first: it is what an exported or shared notebook shows (nbconvert renders a
    # widget with stored state as a script that needs a CDN); a live widget hides it when it renders
    display(static_bundle(report, svg), raw=True)
    if widget is not None:
        display(widget)


def static_bundle(report: Report, svg: str = "") -> dict:
    return {"text/plain": text.render(report), "text/html": html.render(report, svg, static=True),
            "text/markdown": html.markdown_text(report)}
