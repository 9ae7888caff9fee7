"""use_item: backpropagate the step's own term; accumulate .item() (or .detach() when the
total is used as a tensor elsewhere)."""
from nb_autograd.fixes.use_item import use_item

SRC = "total = 0\nfor i in range(3):\n    total += crit(net(x), y)  # running\n    (total / 3).backward()\n"


def test_splits_the_term_out():
    assert use_item(SRC, line=3, backward_line=4, name="total") == (
        "total = 0\nfor i in range(3):\n    step_loss = crit(net(x), y)\n"
        "    total += step_loss.item()  # running\n    step_loss.backward()\n")


def test_reuses_a_named_term_and_keeps_a_tensor_total_a_tensor():
    src = "for i in range(3):\n    l = f(i)\n    run = run + l\n    run.backward()\nprint(run.item())\n"
    assert use_item(src, line=3, backward_line=4, name="run") == (
        "for i in range(3):\n    l = f(i)\n    run = run + l.detach()\n    l.backward()\nprint(run.item())\n")


def test_idempotent_and_safe():
    once = use_item(SRC, line=3, backward_line=4, name="total")
    assert use_item(once, line=3, backward_line=4, name="total") is None
    assert use_item(SRC.replace("+=", "-="), line=3, backward_line=4, name="total") is None
    assert use_item(SRC, line=3, backward_line=4, name="other") is None


def test_backpropagates_the_named_loss_in_a_helper_and_a_dict_slot_through_an_alias():
    helper = "def step(acc):\n    loss = f()\n    acc = acc + 0.5 * loss\n    acc.backward()\n    return acc\n"
    assert use_item(helper, line=3, backward_line=4, name="acc") == (
        "def step(acc):\n    loss = f()\n    acc = acc + 0.5 * loss.item()\n    loss.backward()\n    return acc\n")
    meter = "for i in r:\n    l = f(i)\n    m['t'] += l\n    avg = m['t'] / 2\n    avg.backward()\n"
    once = use_item(meter, line=3, backward_line=5, name="m['t']")
    assert once == "for i in r:\n    l = f(i)\n    m['t'] += l.item()\n    avg = m['t'] / 2\n    l.backward()\n"
    assert use_item(once, line=3, backward_line=5, name="m['t']") is None


def test_refuses_a_backward_in_another_scope_or_not_made_from_the_total():
    apart = "for i in r:\n    total += f(i)\nfor j in r:\n    total.backward()\n"
    assert use_item(apart, line=2, backward_line=4, name="total") is None
    other = "for i in r:\n    total += f(i)\n    avg = g(i)\n    avg.backward()\n"
    assert use_item(other, line=2, backward_line=4, name="total") is None


def test_a_backward_taken_every_k_steps_is_not_rewritten_to_drop_the_other_steps():
    from nb_autograd.fixes.use_item import use_item as item
    src = "acc = 0\nfor i in range(4):\n    acc = acc + f(i)\n    if i % 2:\n        acc.backward()\n"
    assert item(src, line=3, backward_line=5, name="acc") is None


def test_rewrites_the_backward_of_a_one_line_update():
    src = "for i in range(3):\n    l = f(i)\n    run = run + l\n    opt.zero_grad(); run.backward(); opt.step()\n"
    assert use_item(src, line=3, backward_line=4, name="run") == (
        "for i in range(3):\n    l = f(i)\n    run = run + l.item()\n    opt.zero_grad(); l.backward(); opt.step()\n")
