"""wrap_enable_grad: a call made inside a no_grad function gets its graph back."""
from nb_autograd.fixes.wrap_enable_grad import wrap_enable_grad

SRC = """\
import torch

@torch.no_grad()
def step(closure):
    loss = closure()
    return loss
"""


def test_the_call_is_wrapped_once():
    once = wrap_enable_grad(SRC, line=5)
    assert "    with torch.enable_grad():\n        loss = closure()\n" in once
    assert wrap_enable_grad(once, line=5) is None  # already under enable_grad


def test_not_without_torch_imported():
    assert wrap_enable_grad(SRC.replace("import torch\n", ""), line=5) is None
