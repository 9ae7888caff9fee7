"""add_detach: the stored value, or the carried name where it is read; comments survive."""
from nb_autograd.fixes.add_detach import add_detach, items_detached

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


def test_a_container_state_is_detached_and_kept_its_kind():
    assert items_detached("state", "namedtuple") == "state._make(s.detach() for s in state)"
    assert items_detached("states", "dict>tuple") == "{k: tuple(t.detach() for t in s) for k, s in states.items()}"
    assert items_detached("layers", "list>list") == "[[t.detach() for t in s] for s in layers]"
    assert items_detached("s", "tuple") == "tuple(t.detach() for t in s)"
    assert items_detached("h", "deque") is None
    got = patch("out, s = cell(x, s)", names=("s",), reads=True, containers=(("s", "namedtuple"),))
    assert got == LOOP.format(stmt="out, s = cell(x, s._make(t.detach() for t in s))")
    assert add_detach(got, line=3, names=("s",), reads=True, containers=(("s", "namedtuple"),)) is None
    assert patch("out, s = cell(x, s)", names=("s",), reads=True, containers=(("s", "object"),)) is None


def test_a_stored_container_is_detached_item_by_item():
    assert patch("outputs.append(step)", held="dict") == \
        LOOP.format(stmt="outputs.append({k: v.detach() if torch.is_tensor(v) else v for k, v in step.items()})")
    assert patch("prev = out", names=("prev",), held="tuple") == LOOP.format(stmt="prev = tuple(s.detach() for s in out)")
    assert patch("outputs.append(f(h))", held="dict") is None  # not a name: no comprehension over a call
    assert patch("outputs.append(step)", held="object") is None


def test_a_hook_written_as_a_lambda_stores_a_detached_copy():
    src = "acts = []\nnet.register_forward_hook(lambda m, i, o: acts.append(o))\nnet.register_forward_hook(lambda m, i, o: seen.append(o))\n"
    assert add_detach(src, line=2, names=("acts",)) == src.replace("acts.append(o)", "acts.append(o.detach())")
    assert add_detach(src, line=3, names=("acts",)) is None


def test_a_comprehension_of_tensors_is_detached_element_by_element():
    stmt = "ema = [0.99 * e + 0.01 * p for e, p in zip(ema, params)]"
    want = "ema = [(0.99 * e + 0.01 * p).detach() for e, p in zip(ema, params)]"
    assert patch(stmt, names=("ema",), held="list") == LOOP.format(stmt=want)
    assert patch(stmt, names=("ema",)) == LOOP.format(stmt=want)
    assert patch("stats = {k: v * 2 for k, v in d.items()}", names=("stats",)) == \
        LOOP.format(stmt="stats = {k: (v * 2).detach() for k, v in d.items()}")
    assert patch(stmt, names=("ema",), held="list>dict") is None  # a list of dicts: not each element's .detach()


def test_a_line_of_several_stores_detaches_only_the_named_ones():
    src = "for i in range(3):\n    losses.append(loss); preds.append(out); names.append(n)\n"
    once = add_detach(src, line=2, names=("losses",))
    assert once == src.replace("append(loss)", "append(loss.detach())")
    assert add_detach(once, line=2, names=("preds",)) == once.replace("append(out)", "append(out.detach())")
    assert add_detach(src, line=2, names=("losses",), reads=True) is None  # a read cut needs one statement
