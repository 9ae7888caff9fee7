"""add_detach: the stored value, or the carried name where it is read; comments survive."""
from nb_autograd.fixes.add_detach import add_detach

LOOP = "for i in range(3):\n    h = f(x)  # hidden\n    {stmt}\n"


def patch(stmt, **where):
    return add_detach(LOOP.format(stmt=stmt), line=3, **where)


def test_wraps_what_is_stored():
    assert patch("temp.append(h)  # keep") == LOOP.format(stmt="temp.append(h.detach())  # keep")
    assert patch("prev = out", names=("prev",)) == LOOP.format(stmt="prev = out.detach()")
    assert patch("self.bank = x * 2", names=("self.bank",)) == LOOP.format(stmt="self.bank = (x * 2).detach()")
    assert patch("cache[k] = h", names=("cache",)) == LOOP.format(stmt="cache[k] = h.detach()")
    assert patch("pairs.append((h, 1))") == LOOP.format(stmt="pairs.append((h.detach(), 1))")


def test_detaches_the_carried_read_only():
    got = patch("ema = 0.9 * ema + 0.1 * feat.mean(dim=0)", names=("ema",), reads=True)
    assert got == LOOP.format(stmt="ema = 0.9 * ema.detach() + 0.1 * feat.mean(dim=0)")


def test_idempotent_and_refuses_what_it_cannot_do():
    once = patch("temp.append(h)")
    assert add_detach(once, line=3) is None
    assert patch("prev = out.detach()", names=("prev",)) is None
    assert patch("other = out", names=("prev",)) is None
    assert patch("a = b; c = d") is None
    assert add_detach("x = (", line=1) is None
