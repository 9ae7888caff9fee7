"""Packaging metadata (issue 13), checked offline from the source tree: the runtime dependencies are
exactly the third-party packages nb_autograd/ imports (plus two that it uses without importing),
the licence is an SPDX string backed by a LICENSE file, and the project has its URLs."""
from __future__ import annotations

import ast
import pathlib
import re
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

# distribution name -> the top-level module it installs, where the two differ
IMPORT_NAME = {"ipython": "IPython", "jupyter-client": "jupyter_client"}
# declared but not imported, with the reason (each reason is checked below)
USED_WITHOUT_IMPORT = {
    "graphviz-pure": "its `graphviz-pure` program lays out the graph (view/graph_layout.py)",
    "ipywidgets": "anywidget's widget manager; 8.x is what JupyterLab 4 renders",
}
# imported only inside a guard that turns its absence into a plain message, and installed by an extra
OPTIONAL_IMPORTS = {"jupyter_client": "kernel"}


def dist_name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1)).lower()


def third_party_imports() -> set[str]:
    names = set()
    for path in (ROOT / "nb_autograd").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    stdlib = set(sys.stdlib_module_names) | {"tomllib"}  # tomllib: 3.11+, with tomli before (declared)
    return {n for n in names if n not in stdlib and n != "nb_autograd"}


def test_runtime_dependencies_are_what_the_code_imports():
    declared = {dist_name(r) for r in PROJECT["dependencies"]}
    as_imports = {IMPORT_NAME.get(d, d.replace("-", "_")) for d in declared - set(USED_WITHOUT_IMPORT)}
    imported = third_party_imports() - set(OPTIONAL_IMPORTS)
    assert as_imports == imported, (
        f"declared but never imported: {sorted(as_imports - imported)}; "
        f"imported but not declared: {sorted(imported - as_imports)}")
    assert set(USED_WITHOUT_IMPORT) <= declared
    assert "torchviz" not in declared and "setuptools" not in declared


def test_packages_used_without_import_are_really_used():
    layout = (ROOT / "nb_autograd/view/graph_layout.py").read_text(encoding="utf-8")
    assert 'shutil.which("graphviz-pure")' in layout
    widget = (ROOT / "nb_autograd/view/widget.py").read_text(encoding="utf-8")
    assert "anywidget.AnyWidget" in widget


def test_optional_imports_have_an_extra():
    extras = PROJECT["optional-dependencies"]
    for module, extra in OPTIONAL_IMPORTS.items():
        assert module in {IMPORT_NAME.get(d, d) for d in map(dist_name, extras[extra])}, (module, extra)


def test_lower_bounds():
    bounds = {dist_name(r): r for r in PROJECT["dependencies"]}
    assert ">=0.2.1" in bounds["graphviz-pure"]  # 0.2 was never published
    assert ">=1.5" in bounds["libcst"]           # first release with Python 3.13 wheels


def test_torchviz_only_where_a_test_uses_it():
    users = [p for p in (ROOT / "tests").rglob("*.py") if "torchviz" in p.read_text(encoding="utf-8")
             and p.name != "test_packaging.py"]
    in_test_extra = "torchviz" in {dist_name(r) for r in PROJECT["optional-dependencies"]["test"]}
    assert in_test_extra == bool(users)


def test_license_and_urls():
    assert PROJECT["license"] == "MIT"  # an SPDX expression, not the deprecated table
    assert PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "nb_autograd contributors" in text
    for key in ("Homepage", "Issues", "Source"):
        assert PROJECT["urls"][key].startswith("https://")
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    setuptools = [r for r in requires if dist_name(r) == "setuptools"]
    assert setuptools and int(re.search(r">=\s*(\d+)", setuptools[0]).group(1)) >= 77  # SPDX license support
