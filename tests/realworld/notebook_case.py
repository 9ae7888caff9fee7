"""A notebook case: a folder holding `notebook.py` (cells split by `# %%` lines, a header of
`# key: value` lines before the first cell), any modules it imports, and `expert/` with the
files as the expert's fix leaves them. Cells run in a real kernel (nb_autograd.kernel), each sent with its cell id
(`cell-<index>`), in the header's `order`.

Header keys: source, scenario, cause (not for clean), root (`cell K line N` with K the 0-based
cell index and N the line in that cell, or `file NAME line N`), order (cell indexes as run,
e.g. `0 1 2 2`; default each cell once), expert (the fix in words).

Files named `*_stub.py` or `_stub_*.py` stand in for libraries (matplotlib, pytorch-grad-cam):
they are imported from under site-packages, where the real library would be, not from the
notebook's folder."""
from __future__ import annotations

import os
import re
import shutil
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from nb_autograd.kernel import Kernel, NoKernel

HEADER = re.compile(r"^# (source|scenario|cause|root|order|expert): *(.+)$", re.M)
CELL = re.compile(r"^# %%.*$", re.M)


@dataclass(frozen=True)
class NotebookCase:
    folder: Path
    header: dict
    cells: tuple[str, ...]
    files: dict = field(default_factory=dict, hash=False)  # file name -> text, over the folder's

    @property
    def order(self) -> tuple[int, ...]:
        text = self.header.get("order")
        return tuple(int(i) for i in text.split()) if text else tuple(range(len(self.cells)))

    @property
    def root(self) -> tuple[str, str | int, int] | None:
        """("cell", index, line) or ("file", name, line)."""
        m = re.fullmatch(r"(cell|file) (\S+) line (\d+)", self.header.get("root", "").strip())
        if not m:
            return None
        where = int(m.group(2)) if m.group(1) == "cell" else m.group(2)
        return m.group(1), where, int(m.group(3))


def read_cells(text: str) -> tuple[dict, tuple[str, ...]]:
    parts = CELL.split(text)
    header = dict(HEADER.findall(parts[0]))
    return header, tuple(p.strip("\n") for p in parts[1:])


def load(folder: Path, expert: bool = False) -> NotebookCase:
    header, cells = read_cells((folder / "notebook.py").read_text(encoding="utf-8"))
    if expert and (folder / "expert" / "notebook.py").exists():
        _, cells = read_cells((folder / "expert" / "notebook.py").read_text(encoding="utf-8"))
    return NotebookCase(folder, header, cells)


STAND_IN = re.compile(r"(^_?stub_|_stub\.py$)")  # a library's stand-in (`mpl_stub.py` for matplotlib)


def workdir(case: NotebookCase, expert: bool = False) -> Path:
    """A temporary copy of the case folder (with the expert's files on top if asked), without
    the libraries' stand-ins (see `library_dir`)."""
    d = Path(tempfile.mkdtemp(prefix="nbcase-"))
    for p in case.folder.iterdir():
        if p.is_file() and not STAND_IN.search(p.name):
            shutil.copy(p, d / p.name)
    if expert and (case.folder / "expert").is_dir():
        for p in (case.folder / "expert").iterdir():
            shutil.copy(p, d / p.name)
    for name, text in case.files.items():
        (d / name).write_text(text, encoding="utf-8")
    return d


def library_dir(case: NotebookCase) -> Path | None:
    """The case's stand-ins for libraries (matplotlib, pytorch-grad-cam), copied under the
    environment's site-packages: the kernel imports them from there, so that, like the real
    library, they are not the user's code."""
    stand_ins = [p for p in case.folder.iterdir() if p.is_file() and STAND_IN.search(p.name)]
    if not stand_ins:
        return None
    d = Path(tempfile.mkdtemp(prefix="nbcase-lib-", dir=sysconfig.get_paths()["purelib"]))
    for p in stand_ins:
        shutil.copy(p, d / p.name)
    return d


def run_case(case: NotebookCase, expert: bool = False, prelude: str | None = None,
             epilogue: str | None = None) -> tuple[int | None, tuple | None, list]:
    """Run the cells in order; (position in `order` of the first error or None, error, outputs).
    `epilogue` runs after the last cell run (the failing one or the last of the order); its
    output is the last of `outputs`."""
    d, lib = workdir(case, expert), library_dir(case)
    env = {"PYTHONPATH": os.pathsep.join(filter(None, (str(lib or ""), os.environ.get("PYTHONPATH"))))}
    for attempt in range(3):  # a kernel that dies while starting (a loaded machine) is started again
        try:
            kernel = Kernel(d, env=env)
            break
        except NoKernel:
            if attempt == 2:
                raise
    outputs = []
    try:
        if prelude:
            kernel.run(prelude)
        for position, index in enumerate(case.order):
            out = kernel.run(case.cells[index], cell_id=f"cell-{index}")
            outputs.append(out)
            if out.error:
                if epilogue:
                    outputs.append(kernel.run(epilogue))
                return position, out.error, outputs
        if epilogue:
            outputs.append(kernel.run(epilogue))
        return None, None, outputs
    finally:
        kernel.close()
        shutil.rmtree(d, ignore_errors=True)
        if lib is not None:
            shutil.rmtree(lib, ignore_errors=True)
