"""Every demo notebook runs in a real kernel (nbclient): the failing cell is explained with the
right cause, and the notebook ends with the fixed cell running clean."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).parent.parent / "demo_notebooks"


def _load(name: str):
    """The demo scripts are not a package; load them by path (dataclasses need sys.modules)."""
    spec = importlib.util.spec_from_file_location(name, NOTEBOOKS / f"{name}.py")
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


runner = _load("run_notebooks")


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("0[1-5]_*.ipynb")), ids=lambda p: p.stem)
def test_seed_notebook(path):
    results, nb = runner.run_notebook(path)
    [result] = results
    assert result.error == "RuntimeError"
    assert result.named and result.named[0] == result.expected, result
    assert result.fixed_ran_clean
    assert nb.cells[-1].metadata.get("nb_autograd", {}).get("fixed")


def test_other_errors_notebook_names_each_error():
    results, nb = runner.run_notebook(NOTEBOOKS / "06_other_autograd_errors.ipynb")
    assert [r.expected for r in results] == ["inplace_modified_saved_tensor", "no_grad_fn", "non_scalar_backward",
                                             "leaf_inplace", "numpy_on_grad_tensor"]
    for result in results:
        assert result.error == "RuntimeError" and result.named[:1] == (result.expected,), result
    # the HTML page `scripts/demo --headless` writes holds one static explanation per error
    from nbconvert import HTMLExporter

    page = HTMLExporter().from_notebook_node(nb)[0]
    assert "application/vnd.jupyter.widget-state+json" in page  # the widgets' state is stored
    assert page.count('class="nba nba-static"') == len(results) == 5
    for result in results:
        assert f'<span class="cause">{result.expected}</span>' in page


def test_notebooks_are_built_from_their_scenarios():
    import nbformat

    build = _load("build_notebooks")
    built = {name: build.notebook(name) for name in build.SCENARIOS}
    built[build.OTHER_ERRORS["name"]] = build.other_errors_notebook()
    for name, nb in built.items():
        on_disk = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
        assert [c.source for c in on_disk.cells] == [c.source for c in nb.cells], name


def test_each_seed_notebook_ends_with_the_first_fix_nb_autograd_proposes():
    """The fixed cell is exactly what `%gradfix` would insert, not a hand-written variant."""
    import nb_autograd

    build = _load("build_notebooks")
    for name, scenario in build.SCENARIOS.items():
        report = nb_autograd.diagnose(scenario["bad"])
        assert report.top.fixes[0].patched_source == build.fixed_code(name), name
