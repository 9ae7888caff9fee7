"""`%gradwatch on|off` in a real kernel (cells sent with their cell ids): every cell then runs
under the watcher, so an error is explained with exact provenance (the line and iteration
that made the freed part, even in a function defined in another cell), the traceback stays
the native one, `off` and unloading put IPython back as it was."""
from __future__ import annotations

import json

from nb_autograd.kernel import Kernel

SETUP = "import torch\n\ndef step(w, x):\n    return (w * x).pow(2).sum()\n"
FAILING = "w = torch.ones(3, requires_grad=True)\nloss = step(w, torch.randn(3))\nloss.backward()\nloss.backward()\n"
REPORT = "import json as _j, nb_autograd as _n; print('@@' + _j.dumps(_n.last_report().to_dict()['diagnoses'][0]))"
TRANSFORMERS = "print('@@', len(get_ipython().input_transformers_cleanup))"


def _at(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("@@"))[2:]


def test_watching_every_cell_explains_with_provenance_and_off_restores(tmp_path):
    with Kernel(tmp_path) as kernel:
        before = _at(kernel.run(TRANSFORMERS).stdout)
        kernel.run("%load_ext nb_autograd")
        assert "every cell now runs under the watcher" in kernel.run("%gradwatch on", cell_id="on").stdout
        kernel.run(SETUP, cell_id="setup")
        quiet = kernel.run("x = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\n", cell_id="clean")
        assert quiet.stdout == "" and quiet.error is None  # a clean cell says nothing
        failed = kernel.run(FAILING, cell_id="fail")
        assert failed.error and failed.error[0] == "RuntimeError"
        traceback = "\n".join(failed.traceback)
        assert "run_cell_magic" not in traceback and "nb_autograd" not in traceback and "overrides.py" not in traceback
        explained = "\n".join(d.get("text/plain", "") for d in failed.displays)
        assert "created at line 2 of In [" in " ".join(explained.split())  # the watcher's provenance
        top = json.loads(_at(kernel.run(REPORT).stdout))
        assert top["cause"] == "double_backward" and top["where"]["cell_id"] == "fail" and top["line"] == 4
        assert "cells run without the watcher" in kernel.run("%gradwatch off").stdout
        plain = kernel.run(FAILING, cell_id="fail2")
        explained = " ".join("\n".join(d.get("text/plain", "") for d in plain.displays).split())
        assert "double_backward" in explained and "created at line" not in explained  # no provenance now
        kernel.run("%gradwatch on")
        kernel.run("%unload_ext nb_autograd")
        assert _at(kernel.run(TRANSFORMERS).stdout) == before
