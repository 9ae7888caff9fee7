"""detach_before_write: the buffers cut loose right before the first slice write, once."""
from nb_autograd.fixes.detach_before_write import detach_before_write

SRC = """\
class Attention:
    def forward(self, x, start):
        n = x.shape[1]

        self.cache_k[:, start:start + n] = self.wk(x)  # this call's keys
        self.cache_v[:, start:start + n] = self.wv(x)
        return self.cache_k[:, :start + n], self.cache_v[:, :start + n]
"""


def test_each_buffer_is_detached_before_the_first_write_and_comments_stay():
    out = detach_before_write(SRC, line=5, names=("self.cache_k", "self.cache_v"))
    assert ("        self.cache_k = self.cache_k.detach()\n        self.cache_v = self.cache_v.detach()\n\n"
            "        self.cache_k[:, start:start + n] = self.wk(x)  # this call's keys\n") in out
    compile(out, "<patched>", "exec")


def test_idempotent_and_nothing_for_a_line_that_is_no_statement():
    once = detach_before_write(SRC, line=5, names=("self.cache_k",))
    assert detach_before_write(once, line=5, names=("self.cache_k",)) is None
    assert detach_before_write(once, line=4, names=("self.cache_k",)) is None
    assert detach_before_write(SRC, line=1, names=("self.cache_k",)) is None
    assert detach_before_write(SRC, line=5, names=()) is None
