"""A notebook shared as a page keeps its explanation: a demo notebook executed with
`jupyter nbconvert --to html --execute` the way a user runs it (with and without the
widget state stored) shows the cause, its place and the fix's diff in the page's visible
text, in Chromium with every network request refused (no widget JavaScript from a CDN);
`--to markdown` keeps it too."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "demo_notebooks" / "04_calling_backward_twice.ipynb"
SHOTS = ROOT / "docs" / "screenshots"


def _export(tmp_path: Path, to: str, *flags: str) -> Path:
    shutil.copy(DEMO, tmp_path / DEMO.name)
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", to, "--execute", *flags, DEMO.name],
                   cwd=tmp_path, check=True, capture_output=True, timeout=300)
    return next(tmp_path.glob(f"{DEMO.stem}.{'html' if to == 'html' else 'md'}"))


@pytest.mark.browser
@pytest.mark.parametrize("state", ["stored", "not_stored"])
def test_exported_page_shows_cause_place_and_diff_offline(browser, tmp_path, state):
    flags = ["--ExecutePreprocessor.store_widget_state=True"] if state == "stored" else \
        ["--ExecutePreprocessor.store_widget_state=False"]
    page_file = _export(tmp_path, "html", *flags)
    html = page_file.read_text()
    if state == "stored":
        assert "application/vnd.jupyter.widget-state+json" in html  # the case the issue reported
    context = browser.new_context(viewport={"width": 1280, "height": 2400})
    requested: list[str] = []

    def refuse(route):
        if not route.request.url.startswith("file:"):
            requested.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", refuse)
    page = context.new_page()
    page.goto(page_file.as_uri())
    visible = page.inner_text("body")
    assert "Trying to backward through the graph a second time" in visible
    assert "[double_backward]" in visible or "double_backward" in visible
    assert re.search(r"Where: In \[\d+\], line \d+", visible), visible[-3000:]  # the place, in words
    assert re.search(r"^-computed_loss\.backward\(\)$", visible, re.M), "the fix's diff is not visible"
    assert "%gradfix" in visible and "static copy" in visible  # worded for a reader of a page
    assert visible.count("Calling backward twice") >= 1
    if state == "stored":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "exported_page_offline.png"), full_page=True)
    context.close()


def test_markdown_export_keeps_the_explanation(tmp_path):
    md = _export(tmp_path, "markdown").read_text()
    assert "double_backward" in md and "In [2], line 11" in md
    assert "-computed_loss.backward()" in md


def test_a_papermill_run_keeps_the_static_explanation_in_its_output_notebook(tmp_path):
    import nbformat

    shutil.copy(DEMO, tmp_path / DEMO.name)
    run = subprocess.run([sys.executable, "-m", "papermill", DEMO.name, "out.ipynb", "--log-level", "ERROR"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert "Trying to backward through the graph a second time" in run.stdout + run.stderr
    nb = nbformat.read(tmp_path / "out.ipynb", as_version=4)
    failing = next(c for c in nb.cells if "raises-exception" in c.metadata.get("tags", []))
    static = [o for o in failing.outputs if "text/html" in o.get("data", {})]
    assert len(static) == 1 and "nba-static" in static[0].data["text/html"]
    assert "double_backward" in static[0].data["text/markdown"] and "double_backward" in static[0].data["text/plain"]
