"""clear_after_backward: an append-only list read whole by the loss is emptied after its backward."""
from nb_autograd.fixes.clear_after_backward import clear_after_backward

SRC = ("buf = []\nfor ep in range(3):\n    buf.append(f(ep))\n    loss = torch.stack(buf).sum()\n"
       "    loss.backward()\n    opt.step()\n    print(ep)\n")


def test_empties_the_list_after_the_optimizer_calls():
    out = clear_after_backward(SRC, line=3, backward_line=5, name="buf")
    assert out == SRC.replace("    opt.step()\n", "    opt.step()\n    del buf[:]\n")
    assert clear_after_backward(out, line=3, backward_line=5, name="buf") is None


def test_leaves_queues_and_indexed_histories_alone():
    indexed = SRC.replace("torch.stack(buf)", "buf[0]")
    assert clear_after_backward(indexed, line=3, backward_line=5, name="buf") is None
    trimmed = SRC.replace("    print(ep)\n", "    buf.pop(0)\n")
    assert clear_after_backward(trimmed, line=3, backward_line=5, name="buf") is None


def test_a_notebook_one_line_update_is_emptied_after_that_line():
    one_line = SRC.replace("    loss.backward()\n    opt.step()\n", "    opt.zero_grad(); loss.backward(); opt.step()\n")
    assert clear_after_backward(one_line, line=3, backward_line=5, name="buf") == one_line.replace(
        "opt.step()\n", "opt.step()\n    del buf[:]\n")
