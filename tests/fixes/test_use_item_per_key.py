"""use_item_per_key: per-key running totals get floats; the backward takes this step's dict."""
from nb_autograd.fixes.use_item_per_key import use_item_per_key

SRC = ("for step in range(3):\n    losses = f()\n    for k, v in losses.items():\n"
       "        totals[k] = totals[k] + v\n    loss = sum(totals.values())\n    loss.backward()\n")


def test_accumulates_floats_and_backpropagates_the_step_dict():
    out = use_item_per_key(SRC, line=4, backward_line=6)
    assert "totals[k] = totals[k] + v.item()\n" in out and "loss = sum(losses.values())\n" in out
    assert use_item_per_key(out, line=4, backward_line=6) is None


def test_needs_the_items_loop_and_a_loss_made_from_the_totals():
    assert use_item_per_key(SRC.replace("losses.items()", "enumerate(losses)"), line=4, backward_line=6) is None
    assert use_item_per_key(SRC.replace("sum(totals.values())", "g()"), line=4, backward_line=6) is None


def test_a_term_computed_in_the_loop_gets_a_step_dict():
    src = ("for step in range(3):\n    for t, head in heads.items():\n"
           "        totals[t] = totals[t] + w[t] * crit(head(x), y[t])\n    loss = sum(totals.values())\n    loss.backward()\n")
    out = use_item_per_key(src, line=3, backward_line=5)
    assert "    step_totals = {}\n    for t, head in heads.items():\n" in out
    assert "        step_totals[t] = w[t] * crit(head(x), y[t])\n" in out
    assert "        totals[t] = totals[t] + step_totals[t].item()\n" in out
    assert "    loss = sum(step_totals.values())\n" in out
    assert use_item_per_key(out, line=4, backward_line=7) is None
