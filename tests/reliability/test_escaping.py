"""No code gets in: strings from the user's code, names and messages are escaped in HTML,
and nothing the user did not run is executed."""
from __future__ import annotations

import os
from html.parser import HTMLParser

import nb_autograd
from nb_autograd.view import html

HOSTILE = [
    "</script><script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "\"'><svg onload=alert(1)>",
    "</style><b onmouseover=alert(1)>x</b>",
]
OUR_TAGS = {"style", "div", "b", "h4", "span", "p", "code", "pre", "ol", "li", "i"}


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.handlers = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.handlers += [name for name, _ in attrs if name.startswith("on")]


def _cell(payload: str) -> str:
    """The payload in a comment, a string, a variable's value and the failing line."""
    return (f"import torch\n# {payload}\nlabel = {payload!r}\n"
            "w = torch.ones(2, requires_grad=True)\nloss = w.exp().sum()\nloss.backward()\n"
            f"loss.backward()  # {payload}\n")


def test_report_html_has_only_our_tags_and_no_handlers():
    for payload in HOSTILE:
        report = nb_autograd.diagnose(_cell(payload))
        assert report.top.cause == "double_backward"
        parser = _Tags()
        parser.feed(html.render(report))
        assert set(parser.tags) <= OUR_TAGS, (payload, set(parser.tags) - OUR_TAGS)
        assert parser.handlers == [], payload
        assert payload.replace("<", "&lt;").replace(">", "&gt;")[:20] in html.render(report).replace("&quot;", '"').replace("&#x27;", "'")


def test_nothing_after_the_error_and_no_fix_is_executed(tmp_path):
    marker = tmp_path / "ran"
    code = _cell("x") + f"open({str(marker)!r}, 'w').write('ran')\n"
    report = nb_autograd.diagnose(code)
    assert report.top is not None
    assert not marker.exists(), "diagnosing runs the code up to its error, never past it, never a fix"
    assert not os.path.exists(marker)
