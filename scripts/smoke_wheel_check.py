"""Run by scripts/smoke-wheel inside the fresh venv: (c) the installed set is exactly nb_autograd's
runtime requirements and what they need in turn, and the graph engine and the widget work."""
from __future__ import annotations

import ast
import importlib.metadata as md
import pathlib
import re
import sys

from pip._vendor.packaging.requirements import Requirement  # pip is in every venv; packaging may not be

SEED = {"pip", "setuptools", "wheel"}  # what `python -m venv` puts there itself


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def closure(root: str) -> dict[str, str]:
    """distribution -> who needs it, following requirements whose markers hold here (no extras)."""
    seen, todo = {norm(root): "-"}, [root]
    while todo:
        dist = todo.pop()
        for text in md.requires(dist) or []:
            req = Requirement(text)
            if req.marker and not req.marker.evaluate({"extra": ""}):
                continue
            if norm(req.name) not in seen:
                seen[norm(req.name)] = dist
                todo.append(req.name)
    return seen


def imported_top_level(package_dir: pathlib.Path) -> set[str]:
    names = set()
    for path in package_dir.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "nb_autograd"}


def main() -> int:
    import nb_autograd
    from nb_autograd.view import graph_layout

    needed = closure("nb_autograd")
    installed = {norm(d.metadata["Name"]) for d in md.distributions()}
    direct = sorted(norm(r.split(";")[0].split(">")[0].split("=")[0].split("<")[0].strip())
                    for r in md.requires("nb_autograd") or [] if "extra ==" not in r)
    print(f"installed distributions: {len(installed)}; runtime requirements (direct): {', '.join(direct)}")
    print("third-party imports in nb_autograd/:",
          ", ".join(sorted(imported_top_level(pathlib.Path(nb_autograd.__file__).parent))))
    extra = sorted(installed - set(needed) - SEED)
    print("venv seed packages:", ", ".join(sorted(installed & SEED)) or "none")
    print("installed but needed by nothing nb_autograd requires:", ", ".join(extra) or "none")
    svg = graph_layout.run_engine("digraph { a -> b }", fast=False)
    print("graphviz-pure lays out a graph:", "<svg" in svg)
    ok = not extra and "<svg" in svg
    print("smoke (c):", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
