"""detach_tables: the tables go after the backward and the optimizer calls that follow it, only
those not detached there already."""
from nb_autograd.fixes.detach_tables import detach_tables

LOOP = """\
for batch in range(3):
    table[rows] = out
    loss.backward()
    opt.step()
    opt.zero_grad()
    loss = 0
"""


def test_after_the_step_once():
    got = detach_tables(LOOP, backward_line=3, names=("table", "memory"))
    assert got == LOOP.replace("    opt.zero_grad()\n", "    opt.zero_grad()\n    table.detach_()\n    memory.detach_()\n")
    assert detach_tables(got, backward_line=3, names=("table", "memory")) is None
    assert detach_tables(LOOP, backward_line=2, names=("table",)) is None  # not a backward
