"""The widget in a real browser, in JupyterLab 4 and Notebook 7: it appears after a failing
cell, colours freed nodes, shows a node's details on click, switches language, and its
"Insert below" / "Replace cell" buttons edit the notebook (saved to disk) with the fix
that the real pipeline proposes. Nothing outside 127.0.0.1 may be requested."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from nb_autograd.rules.second_backward.tensor_reused_across_iterations import BAD

from .notebook_ui import execution_count, open_notebook, outputs, run_cell, save_and_read, set_theme, sources, write_notebook

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SEED = BAD[0]
# an unrolled LSTMCell whose state crosses batches: 305 autograd nodes, shown collapsed
RECURRENT = """\
import torch
torch.manual_seed(0)
cell = torch.nn.LSTMCell(4, 8)
h = c = torch.zeros(1, 8)
for step in range(3):
    for t in range(10):
        h, c = cell(torch.randn(1, 4), (h, c))
    loss = h.sum()
    loss.backward()
"""
FIXED = SEED.fixed.rstrip("\n")


def rgb(css: str) -> tuple[float, float, float]:
    """'rgb(r, g, b)' or 'color(srgb r g b)' -> floats in 0..1."""
    nums = [float(x) for x in re.findall(r"[\d.]+", css)[:3]]
    return tuple(n / 255 for n in nums) if css.startswith("rgb") else tuple(nums)


def shot(widget, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    widget.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.browser
def test_widget_explains_draws_and_applies(page):
    server = page.server
    path = server.root / "seed.ipynb"
    write_notebook(path, ["%load_ext nb_autograd", RECURRENT, SEED.code])
    open_notebook(page, "seed.ipynb")
    run_cell(page, 0)
    run_cell(page, 1)
    big = page.locator(".jp-Cell").nth(1).locator(".nba-w")
    big.wait_for(timeout=60_000)
    assert "recurrent_state_not_detached" in big.locator(".nba-cause").first.inner_text()
    # the static copy kept for exported pages sits just before the widget, hidden while it renders
    static = page.locator(".jp-Cell").nth(1).locator(".nba-static")
    assert static.count() == 1
    page.wait_for_function("el => !el.offsetParent", arg=static.element_handle())
    count = big.locator(".nba-count").inner_text()
    assert "of 305" in count and big.locator(".nba-svg g.node.block").count() > 3
    big.locator('button[data-act="fit"]').click()  # the first view is centred on the failing node
    big.locator(".nba-svg g.node.block:not(.failed)").first.click()  # Python lays the opened block out
    page.wait_for_function("([el, old]) => !el.querySelector('.nba-svg.busy') && "
                           "el.querySelector('.nba-count').textContent !== old", arg=[big.element_handle(), count])
    assert int(big.locator(".nba-count").inner_text().split()[0]) > int(count.split()[0])
    if server.app == "lab":
        shot(big, "lab-collapsed-recurrent")

    run_cell(page, 2)
    widget = page.locator(".jp-Cell").nth(2).locator(".nba-w")
    widget.wait_for(timeout=60_000)
    assert widget.get_attribute("data-edit") == "notebook"  # the shared model was found
    assert "tensor_reused_across_iterations" in widget.locator(".nba-cause").first.inner_text()
    assert "temp.append(h)" in widget.locator(".nba-code .ln.cause").inner_text()

    # the graph: the node where backward failed is drawn as freed
    failed = widget.locator(".nba-svg g.node.failed")
    failed.wait_for()
    assert "freed" in failed.get_attribute("class")
    fill = rgb(failed.locator("path").evaluate("el => getComputedStyle(el).fill"))
    plain = rgb(widget.locator(".nba-svg g.node.none:not(.leaf) path").first.evaluate("el => getComputedStyle(el).fill"))
    assert fill[0] > fill[1] + 0.1 and fill[0] > fill[2] + 0.1, fill  # reddish
    assert fill != plain
    failed.click()
    details = widget.locator(".nba-details")
    assert "AddmmBackward0" in details.inner_text()
    assert widget.locator(".nba-details .nba-badge.freed").count() == 1
    assert widget.locator(".nba-details table.nba-saved tr.freed").count() >= 1

    # zoom changes the viewBox; Fit restores it
    box = widget.locator(".nba-svg svg").get_attribute("viewBox")
    widget.locator('button[data-act="zoom-in"]').click()
    assert widget.locator(".nba-svg svg").get_attribute("viewBox") != box
    widget.locator('button[data-act="fit"]').click()

    prefix = server.app
    shot(widget, f"{prefix}-light-en")
    widget.locator('button[data-lang="zh"]').click()
    page.wait_for_function("el => el.querySelector('.nba-head b').textContent.includes('nb_autograd') && "
                           "/[\\u4e00-\\u9fff]/.test(el.querySelector('.nba-title').textContent)",
                           arg=widget.element_handle(), timeout=30_000)
    assert widget.locator('button[data-act="insert"]').first.inner_text() == "插入到本单元格下方"
    if prefix == "lab":
        shot(widget, f"{prefix}-light-zh")
    set_theme(page, dark=True)
    shot(widget, f"{prefix}-dark-zh")
    widget.locator('button[data-lang="en"]').click()
    page.wait_for_function("el => el.querySelector('button[data-act=insert]')?.textContent === 'Insert below this cell'",
                           arg=widget.element_handle(), timeout=30_000)
    if prefix == "lab":
        shot(widget, f"{prefix}-dark-en")
    set_theme(page, dark=False)

    # Insert below: the fix the pipeline proposed, as a new cell after the failing one
    widget.locator('button[data-act="insert"]').first.click()
    assert [s.rstrip("\n") for s in sources(page)[2:4]] == [SEED.code.rstrip("\n"), FIXED]
    assert widget.locator(".nba-status").first.get_attribute("data-state") == "inserted"
    assert execution_count(page, 3) is None  # placed, never run by itself
    run_cell(page, 3)
    assert not [o for o in outputs(page, 3) if o["output_type"] == "error"], outputs(page, 3)
    save_and_read(page, path, lambda nb: [c["source"].rstrip("\n") for c in nb["cells"]][2:4] == [SEED.code.rstrip("\n"), FIXED])

    # Copy puts the same code on the clipboard
    widget.locator('button[data-act="copy"]').first.click()
    page.wait_for_function("el => el.querySelector('.nba-status').dataset.state === 'copied'", arg=widget.element_handle())
    assert page.evaluate("() => navigator.clipboard.readText()") == FIXED

    # Replace cell: the failing cell's own code becomes the fix
    widget.locator('button[data-act="replace"]').first.click()
    assert sources(page)[2] == FIXED
    save_and_read(page, path, lambda nb: nb["cells"][2]["source"] == FIXED)
    assert page.blocked == [], page.blocked
