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


def test_a_hand_written_update_in_the_loop_is_what_it_must_read():
    src = "pred = X @ w\nfor i in range(3):\n    loss = (pred - Y).pow(2).mean()\n    loss.backward()\n    w -= 0.1 * w.grad\n"
    assert move_into_loop(src, line=1, loop_line=2) == \
        "for i in range(3):\n    pred = X @ w\n    loss = (pred - Y).pow(2).mean()\n    loss.backward()\n    w -= 0.1 * w.grad\n"


def test_into_the_inner_loop_leaving_blank_lines_in_place():
    src = "x = 1\n\ncodes = enc(data)\nfor e in E:\n    for b in B:\n        loss = head(codes[b])\n"
    once = move_into_loop(src, line=3, loop_line=5)
    assert once == "x = 1\n\nfor e in E:\n    for b in B:\n        codes = enc(data)\n        loss = head(codes[b])\n"
    assert move_into_loop(once, line=3, loop_line=5) is None


def test_not_when_read_outside_the_inner_loop_or_in_its_header():
    outside = "codes = enc(data)\nfor e in E:\n    for b in B:\n        loss = head(codes[b])\n    print(codes)\n"
    assert move_into_loop(outside, line=1, loop_line=3) is None
    header = "codes = enc(data)\nfor e in E:\n    for c in codes:\n        loss = head(c)\n"
    assert move_into_loop(header, line=1, loop_line=3) is None


def test_several_statements_move_in_their_order_and_only_all_of_them():
    src = "x = f(a)\nh = x @ W\np = h.exp()\nloss = p.sum()\nfor i in range(3):\n    loss.backward()\n"
    got = move_into_loop(src, lines=(2, 3, 4), loop_line=5)
    assert got == "x = f(a)\nfor i in range(3):\n    h = x @ W\n    p = h.exp()\n    loss = p.sum()\n    loss.backward()\n"
    assert move_into_loop(src.replace("p = h.exp()\n", "p = h.exp()\nprint(p)\n"), lines=(2, 3, 5), loop_line=6) is None
