"""Graphviz layout and escaping: strings from user code, tensors and messages must come out
as text, never markup, in the SVG, the static HTML and the widget's data."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from nb_autograd.capture.records import GraphNode, GraphSnapshot, SavedBuffer
from nb_autograd.report import Diagnosis, Fix, Report
from nb_autograd.view import graph_layout, html
from nb_autograd.view.graph_view import GraphView
from nb_autograd.view.svg_safe import UnsafeSvg, check, clean_svg

from .graphs import lattice_graph

NASTY = ["</script><script>alert(1)</script>", '<img src=x onerror="alert(1)">', "a \"quoted\" 'name'",
         "back\\slash \\n \\l", "&lt;already&gt; &amp;", "{braces} %s"]


def nasty_graph() -> GraphSnapshot:
    nodes = [GraphNode(i, op, (SavedBuffer(op, (2,), op, 8, "live"),)) for i, op in enumerate(NASTY)]
    edges = tuple((i, i - 1) for i in range(len(NASTY) - 1, 0, -1))
    return GraphSnapshot(tuple(nodes), edges, (len(NASTY) - 1,), stale=(0,), failed_at=(0,))


def svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_nasty_op_names_are_text_in_svg():
    view = GraphView(nasty_graph())
    drawn = view.draw("en")
    assert drawn["error"] == "" and drawn["svg"].startswith("<svg")
    check(drawn["svg"])
    assert "<img" not in drawn["svg"] and "<script" not in drawn["svg"]
    assert sorted(svg_texts(drawn["svg"])) == sorted(NASTY)
    assert {item["op"] for item in drawn["items"].values()} == set(NASTY)  # raw data, shown with textContent


def test_nodes_carry_ids_and_state_classes():
    drawn = GraphView(nasty_graph()).draw("en")
    root = ET.fromstring(drawn["svg"])
    groups = {g.get("id"): g.get("class").split() for g in root.iter("{http://www.w3.org/2000/svg}g")
              if "node" in g.get("class", "")}
    assert set(groups) == set(drawn["items"])
    assert {"live", "failed", "stale"} <= set(groups["n0"]) and "root" in groups[f"n{len(NASTY) - 1}"]


@pytest.mark.parametrize("bad", [
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><g onclick="alert(1)"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><img src="x"/></foreignObject></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><text>unclosed</svg>',
])
def test_checker_refuses_anything_graphviz_does_not_draw(bad):
    with pytest.raises(UnsafeSvg):
        check(bad)


def test_clean_svg_drops_prolog_comments_and_titles():
    raw = ('<?xml version="1.0"?>\n<!DOCTYPE svg>\n<!-- n1 -->\n<svg xmlns="http://www.w3.org/2000/svg" '
           'xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1"><g id="n1" class="node"><title>n1</title>'
           '<text>x</text></g></svg>')
    out = clean_svg(raw)
    assert out.startswith("<svg") and "<title>" not in out and "<!--" not in out and "xlink" not in out


def test_dot_label_neutralises_dot_escapes():
    label = graph_layout.dot_label('a"b\\nc', "second")
    assert label == '"a&quot;b\\\\nc\\nsecond"'


def test_big_view_uses_fast_flags_and_one_edge_per_leaf():
    view = GraphView(lattice_graph(400))
    view.handle("expand_all")
    visible = view.expansion.visible()
    edges = view.expansion.edges(view.expansion.owners(visible))
    dot = graph_layout.to_dot(view.tree, visible, edges, "en")
    assert len(visible) > graph_layout.FAST_ABOVE
    leaf_edges = [line for line in dot.splitlines() if "-> m" in line]
    assert len(leaf_edges) <= 2  # one into each of the two leaves (or their block)
    assert view.draw("en")["svg"]


def test_missing_engine_gives_a_message_not_an_error(monkeypatch):
    monkeypatch.setenv(graph_layout.ENGINE_ENV, "/nonexistent/dot")
    drawn = GraphView(nasty_graph()).draw("zh")
    assert drawn["svg"] == "" and drawn["error"].startswith("无法绘制计算图")


def test_static_html_escapes_user_strings():
    bad = NASTY[0] + NASTY[1]
    fix = Fix("add_detach", bad, bad, diff=f"--- a\n+++ b\n@@ -1 +1 @@\n-{bad}\n+{bad}\n")
    report = Report(error=f"RuntimeError: {bad}", source=f"x = 1\n{bad}\n", lang="en",
                    diagnoses=(Diagnosis("double_backward", 2, bad, bad, (fix,), what=bad, why=bad),),
                    trace=bad, graph=nasty_graph())
    out = html.render(report)
    assert "<script>" not in out and "<img" not in out and "&lt;/script&gt;" in out
    from nb_autograd.view.payload import explanation
    data = explanation(report)
    assert json.loads(json.dumps(data))["diagnoses"][0]["title"] == bad  # data, not markup


def test_wide_text_gets_a_width_estimate():
    assert graph_layout.width_attr("AddBackward0") == ""
    wide = float(graph_layout.width_attr("第 7 行，第 3 次迭代").split("=")[1])
    assert wide > float(graph_layout.width_attr("x" * 10 + "é").split("=")[1])


def test_refused_action_still_answers():
    from nb_autograd.report import Report
    from nb_autograd.view.widget import AutogradWidget

    widget = AutogradWidget(Report(error="RuntimeError: x", graph=lattice_graph(50)))
    rev = widget.graph["rev"]
    widget._on_msg(widget, {"action": "expand", "key": "n1"}, [])  # a node, not a block
    assert widget.graph["rev"] > rev and widget.graph["notice"]
