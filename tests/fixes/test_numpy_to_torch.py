"""numpy_to_torch: NumPy math in a model's forward becomes its torch twin, so the result keeps
the graph; calls without a twin are left alone."""
import torch

from nb_autograd.fixes.numpy_to_torch import numpy_to_torch

from .helpers import run

SRC = """\
import numpy as np
import torch
lin = torch.nn.Linear(3, 3)
x = torch.randn(4, 3)
layers = [x, lin(x), lin(lin(x))]
out = np.sum(layers, 0) / 3
"""


def test_a_reduction_over_a_list_becomes_torch_and_keeps_the_graph():
    out = numpy_to_torch(SRC, line=6)
    assert "torch.sum(torch.stack(layers), 0) / 3" in out
    assert run(out)["out"].grad_fn is not None
    assert numpy_to_torch(out, line=6) is None


def test_axis_becomes_dim_and_a_join_becomes_cat():
    src = SRC.replace("np.sum(layers, 0) / 3", "np.concatenate(layers, axis=1)")
    out = numpy_to_torch(src, line=6)
    assert "torch.cat(layers, dim=1)" in out
    assert isinstance(run(out)["out"], torch.Tensor)


def test_numpy_without_a_torch_twin_is_left_alone():
    assert numpy_to_torch(SRC.replace("np.sum(layers, 0) / 3", "np.asarray(layers[0])"), line=6) is None


def test_a_builtin_named_as_numpys_becomes_the_torch_reduction_of_the_stacked_list():
    source = "loss = sum(layer_losses)\nbest = max(scores)\n"
    assert numpy_to_torch(source, line=1, bare=("sum",)) == "loss = torch.sum(torch.stack(layer_losses))\nbest = max(scores)\n"
    assert numpy_to_torch(source, line=1) is None  # Python's own sum: nothing to change
