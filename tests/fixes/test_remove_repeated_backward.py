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


def test_a_repeat_in_a_helper_above_its_caller_goes_with_its_zero_grad():
    from nb_autograd.fixes.remove_repeated_backward import remove_repeated_backward
    src = ("def norm(loss):\n    model.zero_grad()\n    loss.backward()\n    return 1.0\n\n"
           "def step(loss):\n    loss.backward()\n    if k:\n        norm(loss)\n    opt.step()\n")
    out = remove_repeated_backward(src, line=3, kept=7)
    assert "def norm(loss):\n    return 1.0\n" in out and "    loss.backward()\n    if k:" in out
    # a repeat that runs first (later=False) keeps the zero_grad before it
    assert "zero_grad" in remove_repeated_backward(src, line=3, kept=7, later=False)


def test_a_second_optimizer_zeroed_for_the_repeat_is_zeroed_before_the_kept_backward():
    src = ("for i in range(3):\n    loss = f(i)\n    opt_e.zero_grad()\n    loss.backward()\n    opt_e.step()\n"
           "    opt_d.zero_grad()\n    loss.backward()\n    opt_d.step()\n")
    assert remove_repeated_backward(src, line=7) == (
        "for i in range(3):\n    loss = f(i)\n    opt_e.zero_grad()\n    opt_d.zero_grad()\n    loss.backward()\n"
        "    opt_e.step()\n    opt_d.step()\n")
    same = src.replace("opt_d.zero_grad()", "opt_e.zero_grad()")  # already zeroed there: not twice
    assert remove_repeated_backward(same, line=7).count("opt_e.zero_grad()") == 1
