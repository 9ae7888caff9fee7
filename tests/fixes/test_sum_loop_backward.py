"""sum_loop_backward: a loop doing only `l.backward()` over a collection becomes one backward."""
from nb_autograd.fixes.sum_loop_backward import sum_loop_backward


def test_sums_dict_values_and_lists():
    src = "opt.zero_grad()\nfor name, l in losses.items():\n    l.backward()\nopt.step()\n"
    out = sum_loop_backward(src, line=3)
    assert out == "opt.zero_grad()\nsum(losses.values()).backward()\nopt.step()\n"
    assert sum_loop_backward(out, line=2) is None
    assert sum_loop_backward("for l in losses:\n    l.backward()\n", line=2) == "sum(losses).backward()\n"


def test_leaves_loops_that_do_more_alone():
    assert sum_loop_backward("for l in losses:\n    l.backward()\n    opt.step()\n", line=2) is None
    assert sum_loop_backward("for l in losses:\n    (2 * l).backward()\n", line=2) is None
