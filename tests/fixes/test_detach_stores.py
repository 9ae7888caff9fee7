"""detach_stores: every stale cache of a module is stored detached in one fix."""
from nb_autograd.fixes.detach_stores import detach_stores

SRC = "def f(self, xk, xv):\n    self.cache_k[:2] = xk\n    self.cache_v[:2] = xv\n    return self.cache_k, self.cache_v\n"


def test_detaches_each_store():
    out = detach_stores(SRC, stores=((2, "self.cache_k"), (3, "self.cache_v")))
    assert "self.cache_k[:2] = xk.detach()" in out and "self.cache_v[:2] = xv.detach()" in out


def test_no_fix_when_a_store_cannot_be_detached():
    assert detach_stores(SRC, stores=((2, "self.cache_k"), (4, "self.cache_v"))) is None
