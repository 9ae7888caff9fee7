"""Load/unload/reload 50 times: one explanation per error, the previous handler restored,
other extensions' handlers still called."""
from __future__ import annotations

import torch

from nb_autograd.capture.backwards import RECORDER
from tests.conftest import run_cell

FAILING = "import torch\nw = torch.ones(2, requires_grad=True)\nl = w.exp().sum()\nl.backward()\nl.backward()\n"


def test_fifty_cycles(ipython):
    seen = []

    def theirs(shell, etype, value, tb, tb_offset=None):
        seen.append(str(value))
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)

    ipython.set_custom_exc((KeyError,), theirs)
    before = (ipython.custom_exceptions, ipython.CustomTB)
    engine = torch.autograd.graph._engine_run_backward
    try:
        for i in range(50):
            ipython.run_line_magic("load_ext" if i % 2 == 0 else "reload_ext", "nb_autograd")
            _, out, _ = run_cell(ipython, FAILING)
            assert out.count("[double_backward]") == 1, i
            run_cell(ipython, f"raise KeyError('k{i}')")
            assert seen[-1] == f"'k{i}'"
            ipython.run_line_magic("unload_ext", "nb_autograd")
            assert (ipython.custom_exceptions, ipython.CustomTB) == before
            assert torch.autograd.graph._engine_run_backward is engine and not RECORDER.installed
            _, out, _ = run_cell(ipython, FAILING)
            assert "nb_autograd" not in out
    finally:
        ipython.set_custom_exc((), None)


def test_unload_keeps_a_handler_installed_after_ours(ipython):
    ipython.run_line_magic("load_ext", "nb_autograd")

    def later(shell, etype, value, tb, tb_offset=None):
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)

    ipython.set_custom_exc((OSError,), later)
    installed = ipython.CustomTB
    ipython.run_line_magic("unload_ext", "nb_autograd")
    assert ipython.CustomTB is installed, "we only restore when ours is still the one installed"
    ipython.set_custom_exc((), None)
