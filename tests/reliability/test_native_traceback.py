"""The promise: the native traceback, frame for frame. The same failing cells in a plain
kernel, in one with the extension loaded, and in one watching every cell (`%gradwatch on`:
cells compiled with statement marks) give the same traceback text."""
from __future__ import annotations

import re

import pytest

from nb_autograd.kernel import Kernel

CELLS = {
    "second_backward": "import torch\nx = torch.ones(3, requires_grad=True)\nloss = (x * 2).exp().sum()\n"
                       "loss.backward()\nloss.backward()",
    "inplace": "import torch\na = torch.randn(3, requires_grad=True)\nb = a.sigmoid()\nb.mul_(2)\nb.sum().backward()",
    "grad": "import torch\nx = torch.ones(3, requires_grad=True)\ny = (x * x).sum()\n"
            "torch.autograd.grad(y, x)\ntorch.autograd.grad(y, x)",
    "in_function": "import torch\ndef step(x):\n    \"\"\"One step.\"\"\"\n    loss = (x * 2).exp().sum()\n"
                   "    loss.backward()\n    for _ in range(2):\n        loss.backward()\n    return loss\n"
                   "step(torch.ones(3, requires_grad=True))",
}
ANSI = re.compile(r"\x1b\[[0-9;]*m")
CELL_FILE = re.compile(r"/tmp/ipykernel_\d+/\d+\.py")


def tracebacks(load: bool, watch: bool = False) -> dict[str, str]:
    out = {}
    with Kernel() as kernel:
        kernel.run("%load_ext nb_autograd" if load else "pass")
        kernel.run("%gradwatch on" if watch else "pass")  # the same execution counts in every kernel
        for name, code in CELLS.items():
            result = kernel.run(code)
            assert result.error is not None
            out[name] = CELL_FILE.sub("<cell>", ANSI.sub("", "\n".join(result.traceback)))
    return out


@pytest.mark.timeout(300)
def test_traceback_is_the_native_one():
    plain, ours, watched = tracebacks(load=False), tracebacks(load=True), tracebacks(load=True, watch=True)
    for name in CELLS:
        assert ours[name] == plain[name], name
        assert watched[name] == plain[name], name
