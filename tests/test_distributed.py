"""`python -m nb_autograd SCRIPT` and real `torchrun --nproc_per_node=2` runs on gloo (CPU,
local, bounded in time): the script runs exactly as under `python`, each DDP cause and the
second-backward causes under DDP are named at the right line, one full explanation per run
(rank 0; the other rank says in one line that it found the same), a report per failing
rank, and a clean distributed run prints nothing from the extension."""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from nb_autograd.rules.distributed import ddp_ready_twice, ddp_unused_parameters

TIMEOUT = 240
DDP_TWICE = """\
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(nn.Linear(4, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 4)
loss = model(x).pow(2).mean()
opt.zero_grad()
loss.backward()
opt.step()
loss.backward()
dist.destroy_process_group()
"""
DDP_REUSED = """\
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(nn.Linear(4, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history = []
for step in range(3):
    out = model(torch.randn(2, 4))
    loss = out.pow(2).mean() + sum(h.mean() for h in history)
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(out)
dist.destroy_process_group()
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def torchrun(tmp_path: Path, source: str, *extra: str) -> tuple[subprocess.CompletedProcess, Path]:
    script = tmp_path / "train.py"
    script.write_text(source)
    reports = tmp_path / "reports"
    torchrun_py = [sys.executable, "-m", "torch.distributed.run"]
    args = [*torchrun_py, "--nproc_per_node=2", "--master_addr=127.0.0.1", f"--master_port={_free_port()}",
            "-m", "nb_autograd", "--report-dir", str(reports), *extra, str(script)]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "GLOO_SOCKET_IFNAME": "lo"}
    run = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT, env=env)
    return run, reports


def _explained(stderr: str) -> list[tuple[str, str, int]]:
    """(rank, cause, line) for every full explanation in the log."""
    return [(m.group(1), m.group(2), int(m.group(3)))
            for m in re.finditer(r"\[rank (\d)\] 1\. .*\[(\w+)\]\n\[rank \1\]\s+line (\d+) \|", stderr)]


@pytest.mark.parametrize("source,cause,line", [
    (DDP_TWICE, "double_backward", 15),
    (DDP_REUSED, "tensor_reused_across_iterations", 17),
], ids=["double_backward", "tensor_reused_across_iterations"])
def test_second_backward_causes_under_ddp_one_full_explanation_and_a_report_per_rank(tmp_path, source, cause, line):
    run, reports = torchrun(tmp_path, source)
    assert run.returncode != 0
    assert run.stderr.count("Trying to backward through the graph a second time") >= 2  # both ranks' tracebacks
    assert _explained(run.stderr) == [("0", cause, line)], run.stderr[-4000:]
    assert re.search(rf"\[rank 1\] same cause as rank 0: {cause} at train.py, line {line}", run.stderr), run.stderr[-3000:]
    for rank in (0, 1):
        report = json.loads((reports / f"report-rank{rank}.json").read_text())
        top = report["diagnoses"][0]
        assert (top["cause"], top["line"]) == (cause, line)
        assert top["where"]["file"].endswith("train.py") and top["where"]["line"] == line


@pytest.mark.parametrize("rule", [ddp_unused_parameters, ddp_ready_twice], ids=lambda r: r.CAUSE)
def test_ddp_causes_are_named_at_their_line_and_the_fix_runs_clean(tmp_path, rule):
    example = rule.BAD[0]
    run, reports = torchrun(tmp_path, example.code)
    assert run.returncode != 0
    assert _explained(run.stderr)[:1] == [("0", rule.CAUSE, example.line)], run.stderr[-4000:]
    report = json.loads((reports / "report-rank0.json").read_text())
    first = report["diagnoses"][0]["fixes"][0]["patched_source"]
    assert first == example.fixed
    fixed_dir = tmp_path / "fixed"
    fixed_dir.mkdir()
    clean, _ = torchrun(fixed_dir, first)
    assert clean.returncode == 0, clean.stderr[-3000:]
    assert "nb_autograd" not in clean.stderr


def test_ddp_unused_parameters_names_the_parameters(tmp_path):
    run, _ = torchrun(tmp_path, ddp_unused_parameters.BAD[0].code)
    assert "aux_head.weight, aux_head.bias" in run.stderr


def test_a_clean_distributed_run_prints_nothing_from_the_extension(tmp_path):
    run, reports = torchrun(tmp_path, ddp_unused_parameters.GOOD[0].code)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "nb_autograd" not in run.stderr + run.stdout and not reports.exists()


SCRIPT = """\
import sys
import torch
print("argv", sys.argv[1:], __name__, sys.path[0] == __file__.rpartition("/")[0])
w = torch.ones(3, requires_grad=True)
loss = (w * 2).sum()
loss.backward()
if "twice" in sys.argv:
    loss.backward()
if "exit" in sys.argv:
    sys.exit(3)
if "other" in sys.argv:
    raise ValueError("not an autograd error")
"""


def _python(tmp_path: Path, *args: str, runner: bool) -> subprocess.CompletedProcess:
    (tmp_path / "script.py").write_text(SCRIPT)
    head = [sys.executable, "-m", "nb_autograd"] if runner else [sys.executable]
    return subprocess.run([*head, "script.py", *args], cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)


@pytest.mark.parametrize("args", [("a", "--b"), ("twice",), ("exit",), ("other",)], ids=lambda a: "-".join(a))
def test_the_runner_runs_a_script_as_python_does(tmp_path, args):
    plain, ours = _python(tmp_path, *args, runner=False), _python(tmp_path, *args, runner=True)
    assert ours.returncode == plain.returncode and ours.stdout == plain.stdout
    assert ours.stdout.startswith(f"argv {list(args)} __main__ True")
    assert ours.stderr.startswith(plain.stderr), "the native traceback must come first, unchanged"
    extra = ours.stderr[len(plain.stderr):]
    if "twice" in args:
        assert "[double_backward]" in extra and "line 8 |" in extra
    else:
        assert extra == ""
