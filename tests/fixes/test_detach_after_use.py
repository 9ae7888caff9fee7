"""detach_after_use: the buffer is cut loose after the method's last read of it, before it
returns; never when the return itself reads it; applying twice changes nothing."""
from nb_autograd.fixes.detach_after_use import detach_after_use

FORWARD = """\
class Pool:
    def forward(self, x):
        self.buf.zero_()
        self.buf.add_(x)
        out = self.buf.clone()
        scale = 2
        return out * scale
"""


def test_cut_after_the_last_read_before_the_return():
    got = detach_after_use(FORWARD, line=4, name="self.buf")
    assert got == FORWARD.replace("        out = self.buf.clone()\n", "        out = self.buf.clone()\n        self.buf.detach_()\n")
    assert detach_after_use(got, line=4, name="self.buf") is None


def test_refuses_a_return_that_reads_the_buffer_and_code_outside_a_method():
    returned = FORWARD.replace("        out = self.buf.clone()\n        scale = 2\n        return out * scale\n",
                               "        return self.buf.clone()\n")
    assert detach_after_use(returned, line=4, name="self.buf") is None
    assert detach_after_use("buf.add_(x)\n", line=1, name="buf") is None
