"""Pick the richest view the front end can show: widget, then static HTML, then text."""
from __future__ import annotations

import sys

from ..report import Report
from . import html, text


def in_kernel(shell) -> bool:
    return shell is not None and getattr(shell, "kernel", None) is not None


def show(report: Report, shell=None) -> None:
    if not in_kernel(shell):
        print(text.render(report), file=sys.stdout)
        return
    from IPython.display import display

    bundle = {"text/plain": text.render(report), "text/html": html.render(report)}
    try:
        from .widget import make_widget
    except ImportError:
        make_widget = None
    widget = make_widget(report) if make_widget else None
    if widget is not None:
        display(widget)
    else:
        display(bundle, raw=True)
