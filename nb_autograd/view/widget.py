"""The notebook widget (anywidget: a Python class plus a plain ES module, no bundler).

Python keeps the report's plain records and re-explains or re-lays out on request; the
front end renders, zooms and pans, and edits the notebook (insert below / replace cell)
through the notebook's shared model when the front end exposes it. Nothing runs by itself.
"""
from __future__ import annotations

import pathlib

import anywidget
import traitlets

from ..report import Report
from . import text
from .graph_view import GraphView
from .payload import explanation

STATIC = pathlib.Path(__file__).parent / "static"


class AutogradWidget(anywidget.AnyWidget):
    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"
    lang = traitlets.Unicode("en").tag(sync=True)
    view = traitlets.Dict().tag(sync=True)    # the explanation, see payload.explanation
    graph = traitlets.Dict().tag(sync=True)   # svg + visible items, see GraphView.draw

    def __init__(self, report: Report, **kwargs):
        self._report = report
        calls = report.capture.backwards if report.capture is not None else ()
        self._graph = GraphView(report.graph, calls) if report.graph and report.graph.nodes else None
        super().__init__(lang=report.lang, view=explanation(report, report.capture is not None),
                         graph=self._draw(report.lang), **kwargs)
        self.observe(self._on_lang, names="lang")
        self.on_msg(self._on_msg)

    @property
    def report(self) -> Report:
        return self._report

    def _draw(self, lang: str) -> dict:
        return self._graph.draw(lang) if self._graph else {}

    def _on_lang(self, change) -> None:
        """Re-explain from the captured records in the other language (rules, catalogs and
        fixes run again; the graph is kept)."""
        from ..i18n import LANGUAGES
        from ..pipeline import analyze

        lang, report = change["new"], self._report
        if lang not in LANGUAGES or lang == report.lang or report.capture is None:
            return
        self._report = analyze(report.capture, lang, cell_id=report.cell_id)
        self.view = explanation(self._report)
        self.graph = self._draw(lang)

    def _on_msg(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict) or self._graph is None:
            return
        action, key = content.get("action"), content.get("key")
        if not isinstance(key, (str, type(None))):
            return
        if self._graph.handle(str(action), key):
            self.graph = self._draw(self.lang)
        else:
            self.graph = self._graph.refused(self.graph, self.lang)

    def _repr_mimebundle_(self, **kwargs):
        """The widget view, plus one line of text: the static copy shown just before the
        widget (view/display.py) is what exports and consoles read, so it is not repeated."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data, meta = bundle if isinstance(bundle, tuple) else (bundle or {}, {})
        data = {**data, "text/plain": text.widget_line(self._report)}
        data.pop("text/html", None)
        return data, meta


def make_widget(report: Report) -> AutogradWidget | None:
    """None when there is nothing to show a widget for (display falls back to HTML)."""
    if report.error is None and not report.findings:
        return None
    return AutogradWidget(report)
