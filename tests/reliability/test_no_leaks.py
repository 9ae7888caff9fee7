"""No leaks: after 200 failing cells, each holding a large graph, memory and live tensors
return to the baseline once the user drops their names."""
from __future__ import annotations

import ctypes
import gc

import psutil
import torch

from tests.conftest import run_cell

CELL = """
big = torch.randn(256, 1024, requires_grad=True)          # 1 MiB leaf
out = (big.exp() * big.sin()).tanh()                       # ~3 MiB of saved buffers
loss = out.sum()
loss.backward()
loss.backward()
"""
CELLS = 200
WARM_UP = 50
# One kept graph per cell would add ~4 MB each, 800 MB in all; IPython's own history and
# allocator caches move RSS by a few tens of MB.
RSS_SLACK_MB = 60


def _live_tensors() -> dict[int, tuple]:
    """id -> shape of every tensor the garbage collector can see."""
    gc.collect()
    return {id(o): tuple(o.shape) for o in gc.get_objects() if type(o) is torch.Tensor or
            type(o) is torch.nn.Parameter}


def _rss_mb() -> float:
    """Resident memory after handing freed heap pages back to the OS (glibc keeps them)."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except OSError:
        pass
    return psutil.Process().memory_info().rss / 2**20


def test_200_failing_cells_leave_nothing_behind(shell):
    run_cell(shell, "import torch")
    for _ in range(WARM_UP):              # warm up the allocator and IPython's history
        run_cell(shell, CELL)
    run_cell(shell, "del big, out, loss")
    run_cell(shell, "1/0")                # IPython keeps the last traceback: flush it
    tensors, rss = _live_tensors(), _rss_mb()
    for _ in range(CELLS):
        result, out, _ = run_cell(shell, CELL)
        assert isinstance(result.error_in_exec, RuntimeError)
    assert "[double_backward]" in out
    del result  # the ExecutionResult holds the exception, and so the cell's frames
    run_cell(shell, "del big, out, loss")
    run_cell(shell, "1/0")
    new = {i: shape for i, shape in _live_tensors().items() if i not in tensors}
    grown_rss = _rss_mb() - rss
    print(f"after {CELLS} failing cells: {len(new)} new live tensors {sorted(new.values())}, RSS {grown_rss:+.1f} MB")
    assert not new
    assert grown_rss < RSS_SLACK_MB
