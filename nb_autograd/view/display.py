"""Pick the richest view the front end can show: widget, then static HTML, then text."""
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
    if widget is not None:
        display(widget)
    else:
        display({"text/plain": text.render(report), "text/html": html.render(report)}, raw=True)
