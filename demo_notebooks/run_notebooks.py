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
    name: str
    expected: str | None
    named: tuple[str, ...]     # causes nb_autograd printed for the failing cell, best first
    error: str | None          # the failing cell's error name
    fixed_ran_clean: bool

    @property
    def ok(self) -> bool:
        return bool(self.named) and self.named[0] == self.expected and self.fixed_ran_clean


def _texts(cell) -> str:
    out = []
    for o in cell.get("outputs", []):
        data = o.get("data", {})
        out.append(o.get("text", "") + data.get("text/plain", "") if isinstance(data.get("text/plain", ""), str) else "")
    return "\n".join(out)


def run_notebook(path: Path, timeout: int = 300) -> tuple[Result, nbformat.NotebookNode]:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    failing = next((c for c in nb.cells if c.get("metadata", {}).get("nb_autograd", {}).get("cause")), None)
    fixed = [c for c in nb.cells if c.get("metadata", {}).get("nb_autograd", {}).get("fixed")]
    error = next((o.get("ename") for o in failing.get("outputs", []) if o.get("output_type") == "error"), None) if failing else None
    named = tuple(CAUSE.findall(_texts(failing))) if failing else ()
    clean = bool(fixed) and all(o.get("output_type") != "error" for c in fixed for o in c.get("outputs", []))
    expected = failing["metadata"]["nb_autograd"]["cause"] if failing else None
    return Result(path.stem, expected, named, error, clean), nb


def main(argv: list[str]) -> int:
    out_dir = Path(argv[0] if argv else "demo_results")
    out_dir.mkdir(parents=True, exist_ok=True)
    from nbconvert import HTMLExporter

    lines, ok = ["# nb_autograd demo results", ""], True
    for path in sorted(HERE.glob("*.ipynb")):
        result, nb = run_notebook(path)
        nbformat.write(nb, out_dir / path.name)
        (out_dir / f"{path.stem}.html").write_text(HTMLExporter().from_notebook_node(nb)[0], encoding="utf-8")
        if result.expected is None:
            line = f"- {path.stem}: ran"
        else:
            ok &= result.ok
            line = (f"- {path.stem}: {result.error} -> nb_autograd says {result.named[0] if result.named else 'nothing'}"
                    f" (expected {result.expected}); fixed cell {'runs clean' if result.fixed_ran_clean else 'FAILED'}")
        print(line, flush=True)
        lines.append(line)
    (out_dir / "summary.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"executed notebooks, HTML and summary.md are in {out_dir}/")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
