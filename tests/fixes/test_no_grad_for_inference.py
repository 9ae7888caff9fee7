"""no_grad_for_inference: the with block's inference_mode becomes no_grad, nothing else changes."""
from nb_autograd.fixes.no_grad_for_inference import no_grad_for_inference

SRC = "import torch\nwith torch.inference_mode():  # frozen features\n    feats = net(x)\nhead(feats)\n"


def test_inference_mode_becomes_no_grad_with_its_comment():
    assert no_grad_for_inference(SRC, with_line=2) == \
        "import torch\nwith torch.no_grad():  # frozen features\n    feats = net(x)\nhead(feats)\n"


def test_idempotent_and_only_on_an_inference_mode_block():
    once = no_grad_for_inference(SRC, with_line=2)
    assert no_grad_for_inference(once, with_line=2) is None
    assert no_grad_for_inference(SRC, with_line=3) is None
    assert no_grad_for_inference("import torch\nwith torch.inference_mode(False):\n    y = f(x)\n", with_line=2) is None


def test_a_helpers_inference_mode_decorator_becomes_no_grad():
    src = "import torch\n@torch.inference_mode()\ndef extract(x):\n    return net(x)\n"
    out = no_grad_for_inference(src, with_line=2)
    assert out == src.replace("inference_mode", "no_grad")
    assert no_grad_for_inference(out, with_line=2) is None
