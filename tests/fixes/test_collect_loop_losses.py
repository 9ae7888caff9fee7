"""collect_loop_losses: one iteration's backward becomes a term of a total backpropagated once
after the loop; never when the loop looks at gradients or the call is not a plain backward()."""
from nb_autograd.fixes.collect_loop_losses import collect_loop_losses

SRC = "h = f(x)\n# experts\nfor e in experts:\n    loss = e(h).mean()\n    loss.backward()\nopt.step()\n"


def test_total_before_term_inside_backward_after():
    assert collect_loop_losses(SRC, line=5, loop_line=3) == (
        "h = f(x)\n# experts\ntotal_loss = 0\nfor e in experts:\n    loss = e(h).mean()\n"
        "    total_loss = total_loss + loss\ntotal_loss.backward()\nopt.step()\n")


def test_expression_receiver_is_parenthesised_and_name_is_fresh():
    src = "total_loss = 1\nfor e in experts:\n    (e(h) * 2).mean().backward()\n"
    out = collect_loop_losses(src, line=3, loop_line=2)
    assert "total_loss1 = total_loss1 + (e(h) * 2).mean()" in out and out.endswith("total_loss1.backward()\n")


def test_idempotent_and_safe():
    once = collect_loop_losses(SRC, line=5, loop_line=3)
    assert collect_loop_losses(once, line=5, loop_line=3) is None
    stepping = "for e in experts:\n    e(h).mean().backward()\n    opt.step()\n"
    assert collect_loop_losses(stepping, line=2, loop_line=1) is None
    reads_grad = "for e in experts:\n    e(h).mean().backward()\n    print(w.grad)\n"
    assert collect_loop_losses(reads_grad, line=2, loop_line=1) is None
    conditional = "for e in experts:\n    if e:\n        e(h).mean().backward()\n"
    assert collect_loop_losses(conditional, line=3, loop_line=1) is None
    assert collect_loop_losses("for e in experts:\n    e(h).backward(g)\n", line=2, loop_line=1) is None
