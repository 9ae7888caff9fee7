"""move_into_loop: the assignment moves to the top of the loop body, only when that is safe."""
from nb_autograd.fixes.move_into_loop import move_into_loop

SRC = "w = make()\n# built once\nloss = (w * w).sum()\nfor s in range(3):\n    loss.backward()\n"


def test_moves_with_its_comment():
    assert move_into_loop(SRC, line=3, loop_line=4) == \
        "w = make()\nfor s in range(3):\n    # built once\n    loss = (w * w).sum()\n    loss.backward()\n"


def test_idempotent_and_safe():
    once = move_into_loop(SRC, line=3, loop_line=4)
    assert move_into_loop(once, line=3, loop_line=4) is None
    used_between = "loss = f(w)\nprint(loss)\nfor s in range(3):\n    loss.backward()\n"
    assert move_into_loop(used_between, line=1, loop_line=3) is None
    input_changes = "loss = f(x)\nfor s in range(3):\n    x = g(s)\n    loss.backward()\n"
    assert move_into_loop(input_changes, line=1, loop_line=2) is None
