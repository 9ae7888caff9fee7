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


def test_not_without_torch_bound():
    """No `import torch` and no use of the name: the fix cannot know what to call (a program
    that uses `torch.` without importing it got it from a star import, and is patched)."""
    bare = SRC.replace("import torch\n", "from torch import no_grad\n").replace("@torch.no_grad()", "@no_grad()")
    assert wrap_enable_grad(bare, line=5) is None
