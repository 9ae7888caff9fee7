"""out_of_place: the write at a line, and the other writes named with it, made out of place."""
from nb_autograd.fixes.out_of_place import out_of_place

SRC = "w, h = p[:, :4], p[:, 4:]\nw /= s  # widths\nh /= s\nh.mul_(2)\nout = (w * h).sum()\n"


def test_one_line_or_that_line_and_the_others_named():
    assert out_of_place(SRC, line=3) == SRC.replace("h /= s\n", "h = h / s\n")
    both = out_of_place(SRC, line=3, also=(2,))
    assert "w = w / s  # widths\nh = h / s\nh.mul_(2)\n" in both
    assert "h = h.mul(2)\n" in out_of_place(SRC, line=3, also=(4,))
