"""clone_before_write: a write into a saved tensor goes into a copy; a recurrence written into
one tensor computes each step first, then writes it into a fresh copy."""
from nb_autograd.fixes.clone_before_write import clone_before_write


def test_a_plain_write_goes_into_a_copy_once():
    src = "y = x.exp()\ny[0] = 0\n"
    out = clone_before_write(src, line=2, name="y")
    assert out == "y = x.exp()\ny = y.clone()\ny[0] = 0\n"
    assert clone_before_write(out, line=3, name="y") is None


def test_a_position_rewritten_from_itself_reads_a_kept_copy():
    src = "for t in range(3):\n    T[t] = conv(T[t])\n"
    assert clone_before_write(src, line=2, name="T") == (
        "T_in = T\nT = T.clone()\nfor t in range(3):\n    T[t] = conv(T_in[t])\n")


def test_a_recurrence_computes_the_step_then_writes_a_fresh_copy():
    src = "for t in range(6):\n    H[t + 1] = torch.tanh(W(H[t]))\n"
    out = clone_before_write(src, line=2, name="H")
    assert out == ("for t in range(6):\n    H_next = torch.tanh(W(H[t]))\n    H = H.clone()\n"
                   "    H[t + 1] = H_next\n")
    assert clone_before_write(out, line=2, name="H") is None
