"""sum_losses: one backward on the sum, only when nothing between the calls uses gradients."""
from nb_autograd.fixes.sum_losses import sum_losses

SRC = "m = y.sum()\nn = (y * 3).sum()\n# both\nm.backward()\nn.backward()\nprint(x.grad)\n"


def test_sums_at_the_first_place():
    assert sum_losses(SRC, first_line=4, line=5) == "m = y.sum()\nn = (y * 3).sum()\n# both\n(m + n).backward()\nprint(x.grad)\n"


def test_idempotent_and_safe():
    assert sum_losses(sum_losses(SRC, first_line=4, line=5), first_line=4, line=5) is None
    stepping = "m.backward()\nopt.step()\nn.backward()\n"
    assert sum_losses(stepping, first_line=1, line=3) is None
    made_after = "m.backward()\nn = y.sum()\nn.backward()\n"
    assert sum_losses(made_after, first_line=1, line=3) is None
    assert sum_losses("m.backward(g)\nn.backward()\n", first_line=1, line=2) is None


def test_across_one_optimizer_step_only():
    two_halves = "a.backward()\nopt.step()\nb.backward()\nopt.step()\n"
    assert sum_losses(two_halves, first_line=1, line=3, across_step=True) == "(a + b).backward()\nopt.step()\n"
    other_optimizer = "a.backward()\nopt_d.step()\nb.backward()\nopt_g.step()\n"
    assert sum_losses(other_optimizer, first_line=1, line=3, across_step=True) is None
    assert sum_losses("a.backward()\nprint(1)\nb.backward()\nopt.step()\n", first_line=1, line=3, across_step=True) is None
