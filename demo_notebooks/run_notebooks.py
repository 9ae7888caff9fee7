"""Execute the demo notebooks in a real kernel (nbclient) and say what nb_autograd found.

python demo_notebooks/run_notebooks.py [OUT_DIR]  -> executed notebooks, HTML pages and
summary.md in OUT_DIR (default demo_results/); exit 1 if a notebook did not behave.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).parent
CAUSE = re.compile(r"\[([a-z_]+)\]")


@dataclass(frozen=True)
class Result:
    """One failing cell of a notebook, and whether the notebook's fixed cells ran clean."""

    name: str
    expected: str | None
    named: tuple[str, ...]     # causes nb_autograd printed for the failing cell, best first
    error: str | None          # the failing cell's error name
    fixed_ran_clean: bool      # True when the notebook has no fixed cell

    @property
    def ok(self) -> bool:
        return bool(self.named) and self.named[0] == self.expected and self.fixed_ran_clean


def _texts(cell) -> str:
    return "\n".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", []))


def _meta(cell) -> dict:
    return cell.get("metadata", {}).get("nb_autograd", {})


def run_notebook(path: Path, timeout: int = 300) -> tuple[list[Result], nbformat.NotebookNode]:
    """Execute `path` in a fresh kernel; a Result per cell tagged with the cause it raises."""
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    fixed = [c for c in nb.cells if _meta(c).get("fixed")]
    clean = all(o.get("output_type") != "error" for c in fixed for o in c.get("outputs", []))
    results = []
    for cell in (c for c in nb.cells if _meta(c).get("cause")):
        error = next((o.get("ename") for o in cell.get("outputs", []) if o.get("output_type") == "error"), None)
        results.append(Result(path.stem, _meta(cell)["cause"], tuple(CAUSE.findall(_texts(cell))), error, clean))
    return results, nb


def main(argv: list[str]) -> int:
    out_dir = Path(argv[0] if argv else "demo_results")
    out_dir.mkdir(parents=True, exist_ok=True)
    from nbconvert import HTMLExporter

    lines, ok = ["# nb_autograd demo results", ""], True
    for path in sorted(HERE.glob("*.ipynb")):
        results, nb = run_notebook(path)
        nbformat.write(nb, out_dir / path.name)
        (out_dir / f"{path.stem}.html").write_text(HTMLExporter().from_notebook_node(nb)[0], encoding="utf-8")
        for result in results:
            ok &= result.ok
            line = (f"- {path.stem}: {result.error} -> nb_autograd says "
                    f"{result.named[0] if result.named else 'nothing'} (expected {result.expected})")
            print(line, flush=True)
            lines.append(line)
        if any(_meta(c).get("fixed") for c in nb.cells):
            line = f"- {path.stem}: fixed cell {'runs clean' if results and results[0].fixed_ran_clean else 'FAILED'}"
            print(line, flush=True)
            lines.append(line)
    (out_dir / "summary.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"executed notebooks, HTML and summary.md are in {out_dir}/")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
