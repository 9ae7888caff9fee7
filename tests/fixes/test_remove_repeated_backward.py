"""remove_repeated_backward: only a true repeat of an earlier backward on the same tensor."""
from nb_autograd.fixes.remove_repeated_backward import remove_repeated_backward

SRC = "loss.backward()\nprint(w.grad)\nloss.backward()\n"


def test_removes_the_repeat():
    assert remove_repeated_backward(SRC, line=3) == "loss.backward()\nprint(w.grad)\n"
    in_if = "loss.backward()\nif debug:\n    loss.backward()\n"
    assert remove_repeated_backward(in_if, line=3) == "loss.backward()\nif debug:\n    pass\n"


def test_refuses_anything_else():
    assert remove_repeated_backward(SRC, line=1) is None  # the first call is no repeat
    assert remove_repeated_backward("a.backward()\nb.backward()\n", line=2) is None
    assert remove_repeated_backward("loss.backward()\nprint(1)\n", line=3) is None


def test_keeps_the_helpers_backward_and_drops_the_callers():
    src = "def apply(l):\n    l.backward()\n    opt.step()\nloss.backward()\napply(loss)\n"
    once = remove_repeated_backward(src, line=4, kept=2)
    assert once == "def apply(l):\n    l.backward()\n    opt.step()\napply(loss)\n"
    assert remove_repeated_backward(once, line=4, kept=2) is None
    assert remove_repeated_backward(src, line=4, kept=3) is None  # what stays must be a backward
