"""A notebook run top to bottom in a fresh kernel with the extension loaded, as `jupyter
nbconvert --execute` would, stopping at the first error: how `nb-autograd diagnose X.ipynb`
sees what a notebook user sees. What it prints is the CLI's business."""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_MARK = "@@nb-autograd@@"
_PROBE = f"""\
import json as _nba_json, nb_autograd as _nba
_nba_r = _nba.last_report()
_nba_d = _nba_r.to_dict() if _nba_r is not None else None
if _nba_d is not None:
    from nb_autograd.view.text import render as _nba_render
    _nba_d["text"] = _nba_render(_nba_r)
print("\\n{_MARK}" + _nba_json.dumps(_nba_d, ensure_ascii=False))
"""


class NotANotebook(ValueError):
    """The file is no nbformat-4 notebook; the message is one line for the user."""


class KernelSetupFailed(RuntimeError):
    """The kernel started but could not load nb_autograd."""


@dataclass(frozen=True)
class Cell:
    index: int    # in the file, markdown cells counted
    cell_id: str  # the notebook's own id, or `cell-<index>` when it has none
    source: str


@dataclass(frozen=True)
class NotebookRun:
    """What the run showed: the cell that raised (None when all ran), its error and plain
    traceback, and the kernel's Report as `to_dict()` with `where.cell_index` (None when the
    extension had nothing to say)."""

    failed: Cell | None = None
    error: tuple[str, str] | None = None  # (ename, evalue)
    traceback: str = ""
    ours: bool = False                    # an autograd error
    report: dict | None = None
    explanation: str = ""
    timed_out: str = ""                   # the kernel's timeout message, when a cell ran too long


def parse_notebook(raw: str, path: str) -> tuple[Cell, ...]:
    """The code cells of a notebook's text; NotANotebook when it is not one."""
    try:
        nb = json.loads(raw)
    except ValueError as exc:
        raise NotANotebook(f"{path}: not a notebook (invalid JSON: {exc})") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        version = nb.get("nbformat") if isinstance(nb, dict) else None
        extra = f" (nbformat {version}; only nbformat 4 is read)" if isinstance(version, int) and version < 4 else ""
        raise NotANotebook(f"{path}: not a notebook (no list of cells){extra}")
    cells = []
    for index, cell in enumerate(nb["cells"]):
        if not isinstance(cell, dict):
            raise NotANotebook(f"{path}: not a notebook (cell {index} is not an object)")
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        cell_id = cell.get("id") if isinstance(cell.get("id"), str) and cell.get("id") else f"cell-{index}"
        cells.append(Cell(index, cell_id, source))
    return tuple(cells)


def run_notebook(path: str, cells: tuple[Cell, ...], lang: str) -> NotebookRun:
    """Run `cells` (read from `path`, whose folder is the kernel's working directory) with the
    extension loaded. Raises kernel.NoKernel or KernelSetupFailed."""
    from .evidence.symptoms import is_autograd_error
    from .kernel import Kernel

    with Kernel(os.path.dirname(os.path.abspath(path))) as kernel:
        setup = kernel.run(f"%load_ext nb_autograd\n%nb_autograd lang {lang}\n", cell_id=None, timeout=120)
        if setup.error:
            raise KernelSetupFailed(f"{setup.error[0]}: {setup.error[1]}")
        for cell in cells:
            try:
                result = kernel.run(cell.source, cell_id=cell.cell_id)
            except TimeoutError as exc:
                return NotebookRun(failed=cell, timed_out=str(exc))
            if result.error is None:
                continue
            ename, evalue = result.error
            traceback = _ANSI.sub("", "\n".join(result.traceback)) if result.traceback else f"{ename}: {evalue}"
            ours = is_autograd_error(ename, evalue)
            data = _probe(kernel) if ours and not result.died else None
            if data is not None and data.get("error") is None:  # an earlier %%gradwatch report, not this one
                data = None
            explanation = (data or {}).pop("text", "")
            return NotebookRun(cell, result.error, traceback, ours,
                               _with_cell_index(data, cells, cell.index) if data else None, explanation)
        data = _probe(kernel)  # %%gradwatch findings in cells that ran clean
    if not (data and data.get("diagnoses")):
        return NotebookRun()
    explanation = data.pop("text", "")
    return NotebookRun(report=_with_cell_index(data, cells, None), explanation=explanation)


def _probe(kernel) -> dict | None:
    result = kernel.run(_PROBE, cell_id=None, timeout=120)
    for line in reversed(result.stdout.splitlines()):
        if line.startswith(_MARK):
            return json.loads(line[len(_MARK):])
    return None


def _with_cell_index(data: dict, cells: tuple[Cell, ...], failing_index: int | None) -> dict:
    """`where.cell_index`: the cell in the file the diagnosis points at (found by its cell id;
    else the failing cell)."""
    by_id = {c.cell_id: c.index for c in cells}
    for d in data.get("diagnoses", []):
        where = d.get("where")
        if not isinstance(where, dict):
            where = d["where"] = {}
        where["cell_index"] = by_id.get(where.get("cell_id"), failing_index)
    return data
