"""Driving a notebook page like a user: Shift+Enter on a cell, the save and theme menu
commands. Reads state through `window.jupyterapp` (exposed for tests only)."""
from __future__ import annotations

import ast
import time
from pathlib import Path

import nbformat

PANEL = "window.jupyterapp.shell.currentWidget"


def write_notebook(path: Path, sources: list[str]) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in sources]
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(path))


def open_notebook(page, name: str) -> None:
    """Open and wait until the kernel socket is really connected: the 'idle' badge shows
    earlier, and a Shift+Enter before the socket opens is dropped."""
    page.goto(page.server.page_url(name))
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
    page.wait_for_function(f"() => {PANEL}?.sessionContext?.session?.kernel?.connectionStatus === 'connected'",
                           timeout=90_000)


def sources(page) -> list[str]:
    return page.evaluate(f"() => {PANEL}.content.model.sharedModel.cells.map(c => c.getSource())")


def outputs(page, index: int) -> list[dict]:
    return page.evaluate(f"i => {PANEL}.content.model.cells.get(i).outputs.toJSON()", index)


def execution_count(page, index: int):
    return page.evaluate(f"i => {PANEL}.content.model.cells.get(i).executionCount", index)


def run_cell(page, index: int, timeout: float = 90) -> None:
    """Select cell `index` in command mode and press Shift+Enter; wait for its new count."""
    before = page.evaluate(f"i => {PANEL}.content.model.cells.get(i).executionCount", index)
    page.evaluate(f"""i => {{ const nb = {PANEL}.content; nb.mode = 'command';
        nb.activeCellIndex = i; nb.node.focus(); }}""", index)
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        f"""([i, before]) => {{ const c = {PANEL}.content.model.cells.get(i);
            const k = {PANEL}.sessionContext.session.kernel;
            return c.executionCount != null && c.executionCount !== before && k.status === 'idle'; }}""",
        arg=[index, before], timeout=timeout * 1000)


def save_and_read(page, path: Path, check, timeout: float = 15) -> dict:
    """Save (the File > Save command), then poll the file on disk until `check(notebook)`
    holds (sources as strings)."""
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    end, data = time.time() + timeout, None
    while time.time() < end:
        try:
            data = nbformat.reads(path.read_text(), as_version=4)
            if check(data):
                return data
        except (OSError, ValueError, nbformat.reader.NotJSONError):
            pass
        time.sleep(0.3)
    raise AssertionError(f"the saved notebook never satisfied the check: {data and [c['source'] for c in data['cells']]}")


def set_theme(page, dark: bool) -> None:
    theme = "JupyterLab Dark" if dark else "JupyterLab Light"
    page.evaluate("t => window.jupyterapp.commands.execute('apputils:change-theme', {theme: t})", theme)
    page.wait_for_function("d => document.body.dataset.jpThemeLight === String(!d)", arg=dark, timeout=20_000)
    page.wait_for_timeout(400)  # theme CSS swaps in after the attribute flips


def run_all(page, timeout: float = 120) -> None:
    """Run > Run All Cells, then wait until every cell has a new execution count (or, after
    an error, the kernel is idle with the failing cell counted) and the kernel is idle."""
    before = page.evaluate(f"() => Array.from({PANEL}.content.model.cells).map(c => c.executionCount)")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(
        f"""before => {{ const cells = Array.from({PANEL}.content.model.cells);
            const k = {PANEL}.sessionContext.session.kernel;
            const last = cells[cells.length - 1];
            return last.executionCount != null && last.executionCount !== before[cells.length - 1]
                && k.status === 'idle'; }}""",
        arg=before, timeout=timeout * 1000)


def kernel_report(page) -> dict:
    """`nb_autograd.last_report().to_dict()` read from the notebook's own kernel, as a
    silent user expression: no cell is added and the history is left alone."""
    expr = "__import__('nb_autograd').last_report().to_dict()"
    reply = page.evaluate(f"""async expr => {{
        const k = {PANEL}.sessionContext.session.kernel;
        const f = k.requestExecute({{code: '', silent: true, store_history: false,
                                     user_expressions: {{r: expr}}}});
        const msg = await f.done;
        return msg.content.user_expressions.r; }}""", expr)
    assert reply["status"] == "ok", reply
    return ast.literal_eval(reply["data"]["text/plain"])


def errors(page, index: int) -> list[dict]:
    return [o for o in outputs(page, index) if o["output_type"] == "error"]
