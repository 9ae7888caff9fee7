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


def test_a_dict_of_a_steps_results_is_kept_detached_entry_by_entry_and_the_fix_runs():
    source = """\
import torch
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 1)
        self.outputs = []
    def training_step(self, x):
        out = self.lin(x)
        log = {"loss": out.pow(2).mean(), "n": len(x)}
        log["prediction"] = out
        self.outputs.append(log)
        return log
net = Net()
logs = [net.training_step(torch.randn(8, 4)) for _ in range(3)]
assert all(o["loss"].grad_fn is None and o["n"] == 8 for o in net.outputs)
assert all(l["loss"].grad_fn is not None for l in logs)
"""
    fixed = detach_statistics(source, (11,))
    assert "self.outputs.append({k: v.detach() if torch.is_tensor(v) else v for k, v in log.items()})" in fixed
    exec(compile(fixed, "<fixed>", "exec"), {})
    assert detach_statistics(fixed, (11,)) is None  # applied once: nothing left to detach


def test_a_count_grown_beside_the_totals_is_not_detached():
    src = ("def epoch(batches, step):\n    total, seen = {}, 0\n    for batch_size, x in batches:\n"
           "        for name, val in step(x).items():\n            total[name] += val * batch_size\n"
           "        seen += batch_size\n    return total, seen\n")
    out = detach_statistics(src, lines=(5, 6))
    assert "val.detach() * batch_size" in out and "seen += batch_size\n" in out
