"""recompute_cached: only a store guarded by `if key not in <the same container>:` alone."""
from nb_autograd.fixes.recompute_cached import recompute_cached

SRC = "for k in ks:\n    # memo\n    if k not in cache:\n        cache[k] = enc(x[k])\n    use(cache[k])\n"


def test_drops_the_guard_and_keeps_its_comment():
    assert recompute_cached(SRC, line=4) == "for k in ks:\n    # memo\n    cache[k] = enc(x[k])\n    use(cache[k])\n"


def test_idempotent_and_refuses_other_guards():
    once = recompute_cached(SRC, line=4)
    assert recompute_cached(once, line=3) is None and recompute_cached(once, line=4) is None
    assert recompute_cached(SRC.replace("not in cache", "not in other"), line=4) is None
    assert recompute_cached(SRC.replace("not in", "in"), line=4) is None
    extra = SRC.replace("        cache[k] = enc(x[k])\n", "        cache[k] = enc(x[k])\n        log(k)\n")
    assert recompute_cached(extra, line=4) is None
    with_else = SRC.replace("    use(", "    else:\n        hit(k)\n    use(")
    assert recompute_cached(with_else, line=4) is None
