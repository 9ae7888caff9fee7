"""%%gradwatch in a real IPython shell: nothing stays installed or referenced after the cell,
whether it ends, raises an autograd error, or is interrupted."""
from __future__ import annotations

import pytest

from tests.capture.restored import assert_torch_restored
from tests.conftest import run_cell

SETUP = """\
import gc, weakref, torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
"""

INTERRUPTED = {
    "in_forward": """\
%%gradwatch
class Boom(torch.nn.Module):
    def forward(self, x):
        y = model(x).relu()
        raise KeyboardInterrupt
Boom()(torch.randn(2, 8))
""",
    "in_backward_hook": """\
%%gradwatch
y = model(torch.randn(2, 8)).sum()
def stop(grad):
    raise KeyboardInterrupt
y.register_hook(stop)
y.backward()
""",
    "in_optimizer_step": """\
%%gradwatch
class Stopping(torch.optim.SGD):
    def step(self, closure=None):
        raise KeyboardInterrupt
o = Stopping(model.parameters(), lr=0.1)
model(torch.randn(2, 8)).sum().backward()
o.step()
""",
    "autograd_error": """\
%%gradwatch
loss = model(torch.randn(2, 8)).exp().sum()
loss.backward()
loss.backward()
""",
}


@pytest.mark.parametrize("where", sorted(INTERRUPTED))
def test_everything_is_removed_after_an_interrupt_or_error(shell, where):
    run_cell(shell, SETUP)
    result, out, _ = run_cell(shell, INTERRUPTED[where])
    assert not result.success
    assert ("KeyboardInterrupt" in out) or ("second time" in out and "[double_backward]" in out), out
    assert_torch_restored()
    result, out, _ = run_cell(shell, "%%gradwatch\nmodel(torch.randn(2, 8)).sum().backward()")
    assert result.success and "no problem seen" in out, out
    assert_torch_restored()


def test_tensors_of_a_watched_cell_die_once_dropped(shell):
    run_cell(shell, SETUP)
    result, out, _ = run_cell(shell, """\
%%gradwatch
kept = []
for step in range(4):
    x = torch.randn(4, 8)
    out = model(x)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    kept.append(out)
refs = [weakref.ref(t) for t in (x, out, loss, *kept)]
""")
    assert result.success and "[graph_kept_alive]" in out, out
    run_cell(shell, "del x, out, loss, kept\ngc.collect()")
    result, _, _ = run_cell(shell, "alive = [r() is not None for r in refs]")
    assert shell.user_ns["alive"] == [False] * 7


def test_graph_of_a_failed_watched_cell_dies_once_dropped(shell):
    run_cell(shell, SETUP)
    run_cell(shell, """\
%%gradwatch
w = torch.randn(8, requires_grad=True)
loss = (w * 2).exp().sum()
ref = weakref.ref(loss)
loss.backward()
loss.backward()
""")
    run_cell(shell, "1 / 0")  # IPython keeps the last traceback (and its graph) until the next error
    run_cell(shell, "del loss, w\ngc.collect()")
    run_cell(shell, "alive = ref() is not None")
    assert shell.user_ns["alive"] is False


def test_quiet_prints_nothing_on_a_clean_cell_and_zh_speaks_chinese(shell):
    run_cell(shell, SETUP)
    _, out, _ = run_cell(shell, "%%gradwatch --quiet\nmodel(torch.randn(2, 8)).sum().backward()")
    assert out.strip() == ""
    _, out, _ = run_cell(shell, """\
%%gradwatch --lang zh --quiet
for step in range(3):
    loss = model(torch.randn(2, 8)).pow(2).mean()
    loss.backward()
    opt.step()
""")
    assert "[grads_not_zeroed]" in out and "没有清零梯度" in out, out
