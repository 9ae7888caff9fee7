"""remove_no_grad: a `with torch.no_grad():` block or a `@torch.no_grad()` decorator goes."""
from nb_autograd.fixes.remove_no_grad import remove_no_grad
from nb_autograd.fixes.detach_numpy import detach_numpy


def test_drops_the_decorator_only():
    src = "import torch\n\n\n@torch.no_grad()\n@cache\ndef f(x):\n    y = x\n    return y\n"
    out = remove_no_grad(src, with_line=4)
    assert out == "import torch\n\n\n@cache\ndef f(x):\n    y = x\n    return y\n"
    assert remove_no_grad(out, with_line=4) is None


def test_every_numpy_on_the_line_is_detached():
    out = detach_numpy("c = np.stack([a.numpy(), m(a).numpy()])\n", line=1)
    assert out == "c = np.stack([a.detach().cpu().numpy(), m(a).detach().cpu().numpy()])\n"
