"""move_backward_after_loop: only the last statement, only when no optimizer steps inside."""
from nb_autograd.fixes.move_backward_after_loop import move_backward_after_loop

SRC = "for j in range(3):\n    for i in range(2):\n        loss += f(i)\n        loss.backward()  # all\nprint(1)\n"


def test_dedents_out_of_the_innermost_loop():
    assert move_backward_after_loop(SRC, line=4, loop_line=2) == (
        "for j in range(3):\n    for i in range(2):\n        loss += f(i)\n    loss.backward()  # all\nprint(1)\n")


def test_only_out_of_the_accumulating_loop():
    assert move_backward_after_loop(SRC, line=4, loop_line=1) is None


def test_idempotent_and_refuses_when_training_would_change():
    assert move_backward_after_loop(move_backward_after_loop(SRC, line=4, loop_line=2), line=4, loop_line=2) is None
    stepping = "for i in range(2):\n    opt.zero_grad()\n    loss += f(i)\n    loss.backward()\n"
    assert move_backward_after_loop(stepping, line=4, loop_line=2) is None
    not_last = "for i in range(2):\n    loss += f(i)\n    loss.backward()\n    opt.step()\n"
    assert move_backward_after_loop(not_last, line=3, loop_line=1) is None
    scaled = "for i in range(2):\n    loss += f(i)\n    (loss / i).backward()\n"
    assert move_backward_after_loop(scaled, line=3, loop_line=1) is None


def test_with_step_takes_the_optimizer_calls_along():
    src = "for e in E:\n    loss = 0\n    for t in T:\n        loss += f(t)\n        opt.zero_grad()\n        loss.backward()\n        opt.step()\n"
    once = move_backward_after_loop(src, line=6, loop_line=3, with_step=True)
    assert once == ("for e in E:\n    loss = 0\n    for t in T:\n        loss += f(t)\n"
                    "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n")
    assert move_backward_after_loop(once, line=6, loop_line=3, with_step=True) is None
    assert move_backward_after_loop(src, line=6, loop_line=3) is None
    logged = src + "        print(t)\n"
    assert move_backward_after_loop(logged, line=6, loop_line=3, with_step=True) is None


def test_a_one_line_update_moves_whole_only_with_its_step():
    src = "for i in range(2):\n    loss += f(i)\n    opt.zero_grad(); loss.backward(); opt.step()\n"
    assert move_backward_after_loop(src, line=3, loop_line=1, with_step=True) == (
        "for i in range(2):\n    loss += f(i)\nopt.zero_grad(); loss.backward(); opt.step()\n")
    assert move_backward_after_loop(src, line=3, loop_line=1) is None
    assert move_backward_after_loop(src.replace("opt.step()", "log(i)"), line=3, loop_line=1, with_step=True) is None
