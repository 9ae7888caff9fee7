"""Graphs of about 10^5 nodes in a real kernel: the error explained, the cell run again, the
same under %%gradwatch, a later error elsewhere, the names dropped, the extension unloaded and
the garbage collected; the kernel stays alive and its memory returns.

Reading a graph from Python makes torch free those nodes recursively later (see
nb_autograd/capture/touch.py); without the touch budget these cells killed the kernel."""
from __future__ import annotations

import ctypes

import psutil
import pytest

from nb_autograd.kernel import Kernel

STEPS = 50_000  # a chain of 10^5 nodes; the other shapes are at least as large
SHAPES = {
    "chain": f"""\
x = torch.ones(8, requires_grad=True)
h = x
for _ in range({STEPS}):
    h = torch.tanh(h * 1.0001)
loss = h.sum()
""",
    "recurrent_cell": f"""\
W = torch.randn(8, 8, requires_grad=True)
h = torch.zeros(1, 8)
xs = torch.randn({STEPS // 2}, 1, 8)
for t in range({STEPS // 2}):
    h = torch.tanh(xs[t] @ W + 0.1 * h)
loss = h.pow(2).sum()
""",
    "integration_loop": f"""\
k = torch.tensor(2.0, requires_grad=True)
x, v, dt = torch.ones(4), torch.zeros(4), 0.001
for _ in range({STEPS // 2}):
    v = v - dt * k * x
    x = x + dt * v
loss = x.pow(2).sum()
""",
    "dataset_sum": f"""\
model = torch.nn.Linear(4, 1)
data, target = torch.randn({STEPS // 3}, 4), torch.randn({STEPS // 3}, 1)
loss = 0
for i in range({STEPS // 3}):
    loss = loss + ((model(data[i]) - target[i]) ** 2).mean()
""",
    "lstmcell_rollout": f"""\
cell = torch.nn.LSTMCell(4, 4)
h = c = torch.zeros(1, 4)
xs = torch.randn({STEPS // 8}, 1, 4)
for t in range({STEPS // 8}):
    h, c = cell(xs[t], (h, c))
loss = h.sum()
""",
}
FAIL = "loss.backward()\nloss.backward()\n"
SMALL = "a = torch.ones(3, requires_grad=True)\nb = (a * 2).sum()\nb.backward()\nb.backward()\n"
DROP = "for _n in ('x', 'h', 'c', 'k', 'v', 'W', 'xs', 'loss', 'model', 'cell', 'data', 'target', 'a', 'b'):\n" \
       "    globals().pop(_n, None)\nimport gc; gc.collect()\n"
NODES = "import torch\nn, node = 0, loss.grad_fn\n"


def _rss_mb(pid: int) -> float:
    return psutil.Process(pid).memory_info().rss / 2**20


def _explained(result) -> str:
    text = "".join(d.get("text/plain", "") for d in result.displays)
    return text


@pytest.fixture(scope="module")
def kernel():
    with Kernel() as k:
        k.run("%load_ext nb_autograd\nimport torch, gc, ctypes\n"
              "trim = lambda: ctypes.CDLL('libc.so.6').malloc_trim(0)")
        yield k


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_big_graph_never_kills_the_kernel(kernel, shape):
    kernel.run(SMALL)  # the first-error path is warm; IPython's last traceback is small
    kernel.run("raise ValueError('flush')\n")
    kernel.run(DROP + "trim()")
    before = _rss_mb(kernel.pid())
    code = SHAPES[shape] + FAIL

    first = kernel.run(code)
    assert first.error and "second time" in first.error[1]
    assert "[double_backward]" in _explained(first), first.stdout + first.stderr
    again = kernel.run(code)  # the user runs the cell again: the old graph is still referenced
    assert "[double_backward]" in _explained(again)
    watched = kernel.run("%%gradwatch\n" + code)
    assert watched.error and "[double_backward]" in _explained(watched)
    later = kernel.run(SMALL)
    assert "[double_backward]" in _explained(later)
    for cell in ("raise ValueError('flush')\n", DROP, "gc.collect()\ntrim()\nprint('alive')"):
        result = kernel.run(cell)
        assert not result.died, f"the kernel died after {shape}"
    assert "alive" in result.stdout
    grown = _rss_mb(kernel.pid()) - before
    assert grown < 150, f"{shape}: {grown:.0f} MB still held after the graphs were dropped"


def test_unload_and_collect_after_big_graphs():
    """Explained, then unloaded with the graph still referenced, then freed: alive."""
    with Kernel() as k:
        k.run("%load_ext nb_autograd\nimport torch, gc")
        result = k.run(SHAPES["chain"] + FAIL)
        assert "[double_backward]" in _explained(result)
        k.run("%unload_ext nb_autograd")
        k.run("raise ValueError('flush')\n")
        result = k.run(DROP + "print('alive')")
        assert not result.died and "alive" in result.stdout


ROOT_CHAIN = """\
h = torch.ones(4, requires_grad=True)
for _ in range(60_000):
    prev, h = h, torch.tanh(h * 1.0001)
    (g,) = torch.autograd.grad(h, prev, torch.ones_like(h), retain_graph=True)
print("done")
"""


@pytest.mark.parametrize("watched", [False, True], ids=["hook", "gradwatch"])
def test_backward_roots_along_one_chain_never_kill_the_kernel(watched):
    """Each call's root is the previous call's root's parent: the recorder (and the watcher's
    size reading) touch every root; with nothing failing, 60,000 of them in one chain."""
    with Kernel() as k:
        k.run("%load_ext nb_autograd\nimport torch, gc")
        result = k.run(("%%gradwatch --quiet\n" if watched else "") + ROOT_CHAIN)
        assert "done" in result.stdout and result.error is None
        result = k.run("del h, prev, g\ngc.collect()\nprint('alive')")
        assert not result.died and "alive" in result.stdout
