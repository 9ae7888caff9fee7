"""detach_numpy: every `.numpy()` of the block holding the failing one converts a detached copy."""
from nb_autograd.fixes.detach_numpy import detach_numpy

SWAPPED = """\
def accuracy(emb1, emb2):
    emb1 = emb1.cpu().numpy()
    emb2 = emb2.cpu().numpy()
    return emb1 @ emb2.T
"""


def test_the_line_above_is_converted_too_and_a_moved_tensor_only_detached():
    # called again with the arguments swapped, the line above the failing one fails next
    assert detach_numpy(SWAPPED, line=3) == SWAPPED.replace(".cpu().numpy()", ".cpu().detach().numpy()")


def test_a_plain_conversion_gets_detach_and_cpu():
    assert detach_numpy("values = pred.numpy()\n", line=1) == "values = pred.detach().cpu().numpy()\n"


def test_a_list_of_tensors_is_detached_item_by_item():
    src = "import numpy as np\nl = np.sum([x * y for (x, y) in zip(n, losses)])\nm = np.mean(losses)\n"
    assert detach_numpy(src, 2, "losses", items=True) == src.replace("x * y for", "x * y.detach().cpu() for")
    assert detach_numpy(src, 3, "losses", items=True) == src.replace("np.mean(losses)", "np.mean([t.detach().cpu() for t in losses])")
    assert detach_numpy(src.replace("x * y for", "x * y.detach().cpu() for"), 2, "losses", items=True) is None  # done already
    assert detach_numpy("z = [v for v in other]\n", 1, "losses", items=True) is None
