"""use_item: backpropagate the step's own term; accumulate .item() (or .detach() when the
total is used as a tensor elsewhere)."""
from nb_autograd.fixes.use_item import use_item

SRC = "total = 0\nfor i in range(3):\n    total += crit(net(x), y)  # running\n    (total / 3).backward()\n"


def test_splits_the_term_out():
    assert use_item(SRC, line=3, backward_line=4, name="total") == (
        "total = 0\nfor i in range(3):\n    step_loss = crit(net(x), y)\n"
        "    total += step_loss.item()  # running\n    (step_loss / 3).backward()\n")


def test_reuses_a_named_term_and_keeps_a_tensor_total_a_tensor():
    src = "for i in range(3):\n    l = f(i)\n    run = run + l\n    run.backward()\nprint(run.item())\n"
    assert use_item(src, line=3, backward_line=4, name="run") == (
        "for i in range(3):\n    l = f(i)\n    run = run + l.detach()\n    l.backward()\nprint(run.item())\n")


def test_idempotent_and_safe():
    once = use_item(SRC, line=3, backward_line=4, name="total")
    assert use_item(once, line=3, backward_line=4, name="total") is None
    assert use_item(SRC.replace("+=", "-="), line=3, backward_line=4, name="total") is None
    assert use_item(SRC, line=3, backward_line=4, name="other") is None
