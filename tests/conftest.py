"""Shared fixtures: a real IPython shell, and the rule examples as test parameters."""
from __future__ import annotations

import gc
import io
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest


@pytest.fixture(scope="session")
def ipython():
    """The one in-process IPython shell (IPython allows a single InteractiveShell)."""
    from IPython.testing.globalipapp import start_ipython

    return start_ipython()


@pytest.fixture
def shell(ipython):
    """The shell with nb_autograd loaded; unloaded (and checked) afterwards."""
    ipython.run_line_magic("load_ext", "nb_autograd")
    yield ipython
    ipython.run_line_magic("unload_ext", "nb_autograd")
    gc.collect()


def run_cell(ip, code: str) -> tuple[object, str, str]:
    """Run `code` as a cell; return (ExecutionResult, stdout, stderr).

    IPython's test shell prints tracebacks to sys.stdout, so both streams are captured."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        result = ip.run_cell(code, store_history=True)
    return result, out.getvalue(), err.getvalue()


def examples(kind: str, symptom: str | None = None):
    """pytest params (rule module, example) for every rule's BAD or GOOD examples."""
    from nb_autograd.rules.registry import all_rules

    params = []
    for rule in all_rules():
        if symptom and rule.SYMPTOM != symptom:
            continue
        for i, example in enumerate(getattr(rule, kind, ())):
            marks = [pytest.mark.gpu] if "cuda" in example.needs else []
            params.append(pytest.param(rule, example, id=f"{rule.CAUSE}-{i}", marks=marks))
    return params


def skip_without(example) -> None:
    """Examples that need a GPU are skipped only where there is none; examples that need
    several processes run in tests/test_distributed.py under a real torchrun, not in-process."""
    if "torchrun" in example.needs:
        pytest.skip("runs under torchrun in tests/test_distributed.py")
    if "cuda" in example.needs:
        import torch

        if not torch.cuda.is_available():
            pytest.skip("needs a CUDA device")


sys.setrecursionlimit(max(sys.getrecursionlimit(), 3000))
