"""add_zero_grad: gradients cleared right before the backward, by the optimizer or by hand."""
from nb_autograd.fixes.add_zero_grad import add_zero_grad

LOOP = "for step in range(3):\n    loss = f(w)\n    loss.backward()\n    w.data -= lr * w.grad\n"


def test_the_optimizer_zeroes_before_the_backward():
    assert add_zero_grad(LOOP, backward_line=3, optimizer="opt") == LOOP.replace(
        "    loss.backward()", "    opt.zero_grad()\n    loss.backward()")


def test_tensors_a_hand_written_update_reads_are_cleared_each():
    assert add_zero_grad(LOOP, backward_line=3, leaves=("w", "self.b")) == LOOP.replace(
        "    loss.backward()", "    w.grad = None\n    self.b.grad = None\n    loss.backward()")
    done = add_zero_grad(LOOP, backward_line=3, leaves=("w",))
    assert add_zero_grad(done, backward_line=4, leaves=("w",)) is None  # already cleared there
    assert add_zero_grad(LOOP, backward_line=2, leaves=("w",)) is None  # not a backward
