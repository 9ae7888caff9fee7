"""`nb_autograd.watch()` in a plain script: silent problems reported, errors explained and let
through, torch restored either way."""
from __future__ import annotations

import runpy

import pytest

from tests.capture.restored import assert_torch_restored


def test_watch_context_manager_reports_a_silent_problem(tmp_path, capsys):
    script = tmp_path / "train.py"
    script.write_text("""\
import io
import torch
import nb_autograd
model = torch.nn.Linear(8, 1)
out = io.StringIO()
with nb_autograd.watch(file=out) as watching:
    history = []
    for step in range(4):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        model.zero_grad()
        loss.backward()
        history.append(loss)
""")
    ns = runpy.run_path(str(script))
    report = ns["watching"].report
    assert [(f.cause, f.line) for f in report.findings] == [("graph_kept_alive", 12)]
    assert "history" in ns["out"].getvalue() and "[graph_kept_alive]" in ns["out"].getvalue()
    assert_torch_restored()


def test_watch_context_manager_explains_an_error_and_lets_it_through(tmp_path):
    script = tmp_path / "fail.py"
    script.write_text("""\
import io
import torch
import nb_autograd
out = io.StringIO()
watching = nb_autograd.watch(file=out)
w = torch.ones(3, requires_grad=True)
with watching:
    loss = (w * 2).exp().sum()
    loss.backward()
    loss.backward()
""")
    with pytest.raises(RuntimeError, match="second time"):
        runpy.run_path(str(script), init_globals={})
    assert_torch_restored()
