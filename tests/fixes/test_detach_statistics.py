"""detach_statistics: a module's running statistic is updated from detached step tensors; its
own attributes and the method's arguments are left alone."""
from nb_autograd.fixes.detach_statistics import detach_statistics

SRC = ("class BN:\n    def forward(self, x, decay):\n        mean = x.mean(0)\n"
       "        self.running.mul_(decay).add_(mean * (1 - decay))\n        return x - mean\n")


def test_detaches_what_the_update_reads_from_the_step():
    out = detach_statistics(SRC, lines=(4,))
    assert "add_(mean.detach() * (1 - decay))" in out and "mul_(decay)" in out
    assert detach_statistics(out, lines=(4,)) is None


def test_an_update_reading_only_arguments_is_left_alone():
    src = SRC.replace("mean * (1 - decay)", "x * (1 - decay)")
    assert detach_statistics(src, lines=(4,)) is None
