"""reset_total: a running loss starts afresh for each backward that uses it, in the two shapes
where the total is that backward's objective; anything else is left to other codemods."""
from nb_autograd.fixes.reset_total import reset_total

NESTED = "loss = 0\nfor e in range(2):\n    for s in seqs:\n        for x in s:\n            loss += f(x)\n        loss.backward()\n"
WINDOW = "acc = 0\nfor i in range(4):\n    acc = acc + f(i)\n    if i % 2:\n        acc.backward()\n        opt.step()\n"


def test_moves_the_initialisation_into_the_loop_of_the_backward():
    out = reset_total(NESTED, line=5, backward_line=6, name="loss")
    assert out == "for e in range(2):\n    for s in seqs:\n        loss = 0\n        for x in s:\n            loss += f(x)\n        loss.backward()\n"
    assert reset_total(out, line=5, backward_line=6, name="loss") is None


def test_resets_after_a_backward_taken_every_k_steps():
    out = reset_total(WINDOW, line=3, backward_line=5, name="acc")
    assert out == WINDOW + "        acc = 0\n"
    assert reset_total(out, line=3, backward_line=5, name="acc") is None


def test_leaves_a_per_step_backward_alone():
    src = "total = 0\nfor i in range(3):\n    total = total + f(i)\n    total.backward()\n"
    assert reset_total(src, line=3, backward_line=4, name="total") is None


def test_reset_goes_after_statements_that_only_read_the_total():
    from nb_autograd.fixes.reset_total import reset_total
    src = ("total = 0.0\nlog = []\nfor i in range(4):\n    total = total + f(i)\n    if i % 2:\n"
           "        total.backward()\n        opt.step()\n        log.append(total.item())\n")
    out = reset_total(src, line=4, backward_line=6, name="total")
    assert out.endswith("        log.append(total.item())\n        total = 0.0\n")
    assert reset_total(out, line=4, backward_line=6, name="total") is None
