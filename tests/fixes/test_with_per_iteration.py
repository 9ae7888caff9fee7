"""with_per_iteration: a `with` around a whole loop enters it once per iteration instead."""
from nb_autograd.fixes.with_per_iteration import with_per_iteration

SRC = "with cache():  # once\n    for x in xs:\n        y = f(x)\n\n        g(y)\nprint(y)\n"


def test_the_loop_goes_outside_and_its_body_inside():
    assert with_per_iteration(SRC, line=1) == "for x in xs:\n    with cache():  # once\n        y = f(x)\n\n        g(y)\nprint(y)\n"


def test_only_a_with_holding_exactly_one_loop():
    assert with_per_iteration(SRC, line=2) is None
    assert with_per_iteration("with cache():\n    a = 1\n    for x in xs:\n        f(x)\n", line=1) is None
    assert with_per_iteration("with cache():\n    for x in xs:\n        f(x)\n    else:\n        g()\n", line=1) is None
    assert with_per_iteration("with cache(): f(x)\n", line=1) is None
