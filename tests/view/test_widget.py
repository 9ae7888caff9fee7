"""The widget object without a browser: its mime bundle, its plain-data state, the
language switch (re-explained by the pipeline) and the expand/collapse messages."""
from __future__ import annotations

import json

import pytest

import nb_autograd
from nb_autograd.rules.second_backward.tensor_reused_across_iterations import BAD
from nb_autograd.view.display import widget_for
from nb_autograd.view.widget import AutogradWidget, make_widget

from .graphs import lattice_graph


@pytest.fixture(scope="module")
def report():
    return nb_autograd.diagnose(BAD[0].code, lang="en")


def test_bundle_carries_the_widget_and_one_line_of_text(report):
    """The static copy shown before the widget carries the explanation; the widget's own
    bundle adds no second copy for exports or consoles to show."""
    widget = make_widget(report)
    data, _meta = widget._repr_mimebundle_()
    assert set(data) == {"application/vnd.jupyter.widget-view+json", "text/plain"}
    assert data["text/plain"].startswith("nb_autograd") and "\n" not in data["text/plain"]
    assert "tensor_reused_across_iterations" in data["text/plain"]


def test_state_is_plain_data(report):
    widget = make_widget(report)
    state = widget.get_state()
    for key in ("view", "graph", "lang"):
        json.dumps(state[key])  # no tensors, no objects
    view = state["view"]
    assert view["cell_id"] == "" and view["diagnoses"][0]["lines"][12]["role"] == "cause"
    assert view["diagnoses"][0]["fixes"][0]["source"] == BAD[0].fixed.rstrip("\n")
    assert view["diagnoses"][0]["fixes"][0]["magic"] == "%gradfix 1"
    assert state["graph"]["svg"].startswith("<svg") and state["graph"]["total"] == len(report.graph.nodes)
    failed = [v for v in state["graph"]["items"].values() if v.get("failed")]
    assert failed and failed[0]["state"] == "freed" and failed[0]["facts"]


def test_language_switch_re_explains_from_the_catalogs(report):
    widget = make_widget(report)
    english = widget.view["diagnoses"][0]["title"]
    widget.lang = "zh"
    assert widget.view["lang"] == "zh" and widget.view["words"]["insert"] == "插入到{target}下方"
    chinese = nb_autograd.diagnose(BAD[0].code, lang="zh").top.title
    assert widget.view["diagnoses"][0]["title"] == chinese != english
    assert widget.report.lang == "zh"
    widget.lang = "en"
    assert widget.view["diagnoses"][0]["title"] == english


def test_block_messages_relayout():
    report = nb_autograd.report.Report(error="RuntimeError: x", graph=lattice_graph(300))
    widget = AutogradWidget(report)
    blocks = [k for k, v in widget.graph["items"].items() if v["kind"] == "block" and not v["failed"]]
    shown = widget.graph["shown"]
    widget._on_msg(widget, {"action": "expand", "key": blocks[0]}, [])
    assert widget.graph["shown"] > shown and widget.graph["focus"]
    widget._on_msg(widget, {"action": "collapse", "key": widget.graph["focus"]}, [])
    assert widget.graph["shown"] == shown
    widget._on_msg(widget, {"action": "expand_all"}, [])
    assert widget.graph["shown"] + widget.graph["blocks"] > shown
    for junk in ({"action": "expand", "key": 5}, {"action": "nope"}, "text", {"action": "expand", "key": "zz"}):
        widget._on_msg(widget, junk, [])  # ignored, never raises


def test_nothing_to_show_means_no_widget():
    assert make_widget(nb_autograd.report.Report(error=None)) is None
    assert widget_for(nb_autograd.report.Report(error=None)) is None
