"""A fix whose target is an EARLIER cell than the failing one, applied from the widget in a
real browser (JupyterLab 4 and Notebook 7): features computed once in cell 2 are reused by
every iteration of the training loop in cell 3, so the loop's second backward fails in
cell 3, but the top fix (wrap the features in torch.no_grad()) edits cell 2. Replace must
change cell 2 to the fix's patched source and leave the failing cell alone, and the
notebook must then run clean."""
from __future__ import annotations

import pytest

from .notebook_ui import PANEL, errors, kernel_report, open_notebook, run_all, save_and_read, sources, write_notebook

SETUP = """\
import torch
torch.manual_seed(0)
extractor = torch.nn.Linear(4, 4)
head = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
x = torch.randn(8, 4)"""
FEATS = "feats = torch.relu(extractor(x))"
LOOP = """\
for step in range(3):
    opt.zero_grad()
    loss = head(feats).pow(2).mean()
    loss.backward()
    opt.step()"""
CELLS = ["%load_ext nb_autograd", SETUP, FEATS, LOOP]
FAILING, EARLIER = 3, 2
FIXED = "with torch.no_grad():\n    feats = torch.relu(extractor(x))\n"
SHOT = {"lab": "/tmp/earlier_fix_lab.png", "notebook": "/tmp/earlier_fix_nb7.png"}


@pytest.mark.browser
def test_replace_fixes_the_earlier_cell(page):
    server = page.server
    path = server.root / "earlier.ipynb"
    write_notebook(path, CELLS)
    open_notebook(page, "earlier.ipynb")
    run_all(page)
    assert [bool(errors(page, i)) for i in range(len(CELLS))] == [False, False, False, True]

    widget = page.locator(".jp-Cell").nth(FAILING).locator(".nba-w")
    widget.wait_for(timeout=60_000)
    assert widget.get_attribute("data-edit") == "notebook"  # the shared model was found
    assert "computed_before_loop" in widget.locator(".nba-cause").first.inner_text()
    assert page.locator(".jp-Cell").nth(EARLIER).locator(".nba-w").count() == 0  # shown below the failing cell only

    # the pipeline's own answer: the root and the first fix sit in cell 2, the error in cell 3
    top = kernel_report(page)["diagnoses"][0]
    assert top["where"]["cell_id"] == f"cell-{EARLIER}", top["where"]
    fix = top["fixes"][0]
    assert fix["where"]["cell_id"] == f"cell-{EARLIER}" and not fix["where"]["file"], fix["where"]
    assert fix["patched_source"] == FIXED

    # Replace on the first fix: cell 2 becomes the fix, the failing cell 3 is untouched
    first = widget.locator(".nba-fix").first
    assert first.locator('button[data-act="insert"]').count() == 1  # a cell target, not a file
    first.locator('button[data-act="replace"]').click()
    assert first.locator(".nba-status").get_attribute("data-state") == "replaced"
    now = sources(page)
    assert len(now) == len(CELLS)
    assert now[EARLIER] == fix["patched_source"].rstrip("\n")
    assert now[FAILING] == LOOP and now[:EARLIER] == CELLS[:EARLIER]
    editor = page.locator(".jp-Cell").nth(EARLIER).locator(".cm-content")
    page.wait_for_function("el => el.innerText.includes('with torch.no_grad():')", arg=editor.element_handle())
    assert "feats = torch.relu(extractor(x))" in editor.inner_text()
    page.screenshot(path=SHOT[server.app])
    save_and_read(page, path, lambda nb: [c["source"] for c in nb["cells"]]
                  == [*CELLS[:EARLIER], FIXED.rstrip("\n"), LOOP])

    # run the whole notebook again: no error anywhere
    run_all(page)
    assert all(execution_count is not None for execution_count in
               page.evaluate(f"() => Array.from({PANEL}.content.model.cells).map(c => c.executionCount)"))
    assert [errors(page, i) for i in range(len(CELLS))] == [[]] * len(CELLS)
    assert page.locator(".jp-Cell").nth(FAILING).locator(".nba-w").count() == 0
    assert page.blocked == [], page.blocked
