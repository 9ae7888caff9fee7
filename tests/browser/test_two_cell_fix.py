"""A fix that changes TWO cells, applied with one click in a real browser (JupyterLab 4 and
Notebook 7): the optimizer step sits in its own cell between the cell of the first backward
and the cell of the second, so the step rewrites the weights the second backward still
needs. The fix moves the step after the second backward: out of the step cell, into the
failing cell. One Replace must change both cells (half of a move still fails), and the
notebook must then run clean."""
from __future__ import annotations

import pytest

from .notebook_ui import PANEL, errors, kernel_report, open_notebook, run_all, save_and_read, sources, write_notebook

SETUP = """\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x, y = torch.randn(8, 4), torch.randn(8, 1)"""
FORWARD = """\
opt.zero_grad()
out = net(x)
loss_fit = torch.nn.functional.mse_loss(out, y)
loss_small = out.abs().mean()"""
FIRST = "loss_fit.backward(retain_graph=True)"
STEP = "opt.step()\nprint('stepped')"
SECOND = "loss_small.backward()"
CELLS = ["%load_ext nb_autograd", SETUP, FORWARD, FIRST, STEP, SECOND]
STEP_CELL, FAILING = 4, 5


@pytest.mark.browser
def test_one_replace_changes_both_cells_of_a_moved_step(page):
    path = page.server.root / "two_cells.ipynb"
    write_notebook(path, CELLS)
    open_notebook(page, "two_cells.ipynb")
    run_all(page)
    assert [bool(errors(page, i)) for i in range(len(CELLS))] == [False] * FAILING + [True]

    widget = page.locator(".jp-Cell").nth(FAILING).locator(".nba-w")
    widget.wait_for(timeout=60_000)
    assert "inplace_modified_saved_tensor" in widget.locator(".nba-cause").first.inner_text()

    top = kernel_report(page)["diagnoses"][0]
    assert top["where"]["cell_id"] == f"cell-{STEP_CELL}", top["where"]
    fix = top["fixes"][0]
    assert fix["kind"] == "move_step_after_backward"
    assert fix["where"]["cell_id"] == f"cell-{FAILING}"
    assert [e["where"]["cell_id"] for e in fix["also"]] == [f"cell-{STEP_CELL}"]

    first = widget.locator(".nba-fix").first
    assert first.locator('button[data-act="insert"]').count() == 0  # a move is applied whole, in place
    assert first.locator(".nba-diff").count() == 2  # both cells' diffs are shown
    first.locator('button[data-act="copy"]').click()  # Copy takes both cells, each under its name
    page.wait_for_function("el => el.querySelector('.nba-status').dataset.state === 'copied'",
                           arg=first.element_handle())
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.startswith("# this cell\n" + fix["patched_source"].rstrip("\n"))
    assert copied.endswith(fix["also"][0]["patched_source"].rstrip("\n")) and "\n\n# In [" in copied
    first.locator('button[data-act="replace"]').click()
    assert first.locator(".nba-status").get_attribute("data-state") == "replaced"
    now = sources(page)
    assert now[FAILING] == fix["patched_source"].rstrip("\n") and "opt.step()" in now[FAILING]
    assert now[STEP_CELL] == fix["also"][0]["patched_source"].rstrip("\n") and "opt.step()" not in now[STEP_CELL]
    assert now[:STEP_CELL] == CELLS[:STEP_CELL]
    save_and_read(page, path, lambda nb: [c["source"] for c in nb["cells"]] == now)

    run_all(page)
    assert all(n is not None for n in page.evaluate(f"() => Array.from({PANEL}.content.model.cells).map(c => c.executionCount)"))
    assert [errors(page, i) for i in range(len(CELLS))] == [[]] * len(CELLS)
    assert page.blocked == [], page.blocked
