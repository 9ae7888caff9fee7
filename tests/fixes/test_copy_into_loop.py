"""copy_into_loop: the statements that build a value are copied to the top of a loop, or right
before a later statement (a re-run cell's backward), and the copy is made once."""
from nb_autograd.fixes.copy_into_loop import copy_into_loop

SRC = "y_hat = net(X)\nl = loss(y_hat, y)\nprint(1)\nl.sum().backward()\nstep()\n"


def test_copied_right_before_the_backward_and_not_twice():
    out = copy_into_loop(SRC, lines=(1, 2), before=4)
    assert out == "y_hat = net(X)\nl = loss(y_hat, y)\nprint(1)\ny_hat = net(X)\nl = loss(y_hat, y)\nl.sum().backward()\nstep()\n"
    assert copy_into_loop(out, lines=(1, 2), before=4) is None


def test_copied_to_the_top_of_a_loop():
    src = "l = loss(w)\nfor i in range(3):\n    l.backward()\n"
    out = copy_into_loop(src, lines=(1,), loop_line=2)
    assert out.splitlines()[2].strip() == "l = loss(w)" and out.startswith("l = loss(w)\n")


def test_a_name_the_loop_assigns_later_is_fine_when_its_own_copy_comes_first():
    src = ("y_ = model(X)\nloss = loss_fn(y_, y)\nfor _ in range(2):\n    opt.zero_grad()\n    loss.backward()\n"
           "    with torch.no_grad():\n        y_ = model(X)\n")
    out = copy_into_loop(src, lines=(1, 2), loop_line=3)
    assert out.splitlines()[3:5] == ["    y_ = model(X)", "    loss = loss_fn(y_, y)"]
    assert copy_into_loop(src, lines=(2,), loop_line=3) is None  # alone it would read the loop's later y_
