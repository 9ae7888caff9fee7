"""Errors raised through PyTorch Lightning's and Hugging Face Accelerate's frames are explained
at the user's own code, with the right cause: real packages on CPU, tiny models, a few steps,
each script run by `python -m nb_autograd` (tests/frameworks/)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

CASES = Path(__file__).parent / "frameworks"


def _run(tmp_path: Path, name: str) -> tuple[subprocess.CompletedProcess, dict | None]:
    reports = tmp_path / "reports"
    run = subprocess.run([sys.executable, "-m", "nb_autograd", "--report-dir", str(reports), str(CASES / name)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    report = reports / "report-rank0.json"
    return run, json.loads(report.read_text()) if report.exists() else None


@pytest.mark.parametrize("name,package,cause,line,fix", [
    ("lightning_manual_kept_output.py", "lightning", "tensor_reused_across_iterations", 24, "self.prev = out.detach()"),
    ("lightning_auto_kept_output.py", "lightning", "tensor_reused_across_iterations", 19, "self.prev = out.detach()"),
    ("lightning_manual_backward_twice.py", "lightning", "double_backward", 19, None),
    ("accelerate_running_total.py", "accelerate", "accumulated_loss_backward_in_loop", 14, None),
])
def test_framework_errors_are_explained_at_the_users_code(tmp_path, name, package, cause, line, fix):
    pytest.importorskip(package)
    run, report = _run(tmp_path, name)
    assert run.returncode == 1
    assert re.search(rf"^1\. .*\[{cause}\]\n\s+line {line} \|", run.stderr, re.M), run.stderr[-3000:]
    top = report["diagnoses"][0]
    assert (top["cause"], top["where"]["line"]) == (cause, line) and top["where"]["file"].endswith(name)
    if fix:  # the first fix, written back, trains without the error
        patched = top["fixes"][0]["patched_source"]
        assert fix in patched
        (tmp_path / "fixed.py").write_text(patched)
        fixed = subprocess.run([sys.executable, "-m", "nb_autograd", "fixed.py"], cwd=tmp_path,
                               capture_output=True, text=True, timeout=300)
        assert fixed.returncode == 0 and "nb_autograd" not in fixed.stderr, fixed.stderr[-3000:]


def test_a_clean_lightning_run_prints_nothing_from_the_extension(tmp_path):
    pytest.importorskip("lightning")
    run, report = _run(tmp_path, "lightning_clean.py")
    assert run.returncode == 0, run.stderr[-3000:]
    assert report is None and "nb_autograd" not in run.stderr
