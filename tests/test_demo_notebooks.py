"""Every demo notebook runs in a real kernel (nbclient): the failing cell is explained with the
right cause, and the notebook ends with the fixed cell running clean."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).parent.parent / "demo_notebooks"
spec = importlib.util.spec_from_file_location("run_notebooks", NOTEBOOKS / "run_notebooks.py")
runner = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runner)


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("0[1-5]_*.ipynb")), ids=lambda p: p.stem)
def test_seed_notebook(path):
    result, nb = runner.run_notebook(path)
    assert result.error == "RuntimeError"
    assert result.named and result.named[0] == result.expected, result
    assert result.fixed_ran_clean
    assert nb.cells[-1].metadata.get("nb_autograd", {}).get("fixed")


def test_notebooks_are_built_from_their_scenarios():
    import nbformat

    spec = importlib.util.spec_from_file_location("build_notebooks", NOTEBOOKS / "build_notebooks.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    for name in build.SCENARIOS:
        on_disk = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
        assert [c.source for c in on_disk.cells] == [c.source for c in build.notebook(name).cells], name
