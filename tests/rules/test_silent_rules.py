"""Family C under %%gradwatch in a real IPython shell: every BAD example is reported with its
line and the name involved; every clean example of every rule reports nothing."""
from __future__ import annotations

import re

import pytest

from nb_autograd.capture.records import Capture
from nb_autograd.capture.silent import GradsAccumulated, KeptGraph
from nb_autograd.evidence import build
from nb_autograd.pipeline import analyze
from tests.conftest import examples, run_cell, skip_without

NAMES = {  # (cause, BAD index) -> the name the finding must mention
    ("graph_kept_alive", 0): "total_loss",
    ("graph_kept_alive", 1): "outputs",
    ("graph_kept_alive", 2): "total",
    ("graph_kept_alive", 3): "total_loss",
    ("graph_kept_alive", 4): "h",
    ("graph_kept_alive", 5): "net.running_mean",
    ("graph_kept_alive", 6): "epoch_aux",
    ("graph_kept_alive", 7): "err",
    ("graph_kept_alive", 8): "total_loss",
    ("graph_kept_alive", 9): "acc.buf",
    ("graph_kept_alive", 10): "runner.losses._sum",
    ("graph_kept_alive", 11): "history",
    ("graph_kept_alive", 12): "train_losses",
    ("graph_kept_alive", 13): "stats.feat_mean",
    ("graph_kept_alive", 14): "tracker.trail",
    ("graph_kept_alive", 15): "outputs",
    ("graph_kept_alive", 16): "net.tensor_s._tensor",
    ("graph_kept_alive", 17): "history",
    ("grads_not_zeroed", 0): "opt",
    ("grads_not_zeroed", 1): "optimizer",
    ("grads_not_zeroed", 2): "w",
    ("grads_not_zeroed", 3): "model",
    ("grads_not_zeroed", 4): "opt_g",
    ("grads_not_zeroed", 5): "opt",
}


@pytest.mark.parametrize("rule,example", examples("BAD", "silent"))
def test_silent_bad_example_is_reported_in_the_cell_with_line_and_name(shell, rule, example):
    index = rule.BAD.index(example)
    result, out, _ = run_cell(shell, "%%gradwatch\n" + example.code)
    assert result.success, out
    first = re.search(r"^1\. .*\[(\w+)\]\n\s+line (\d+) \|", out, re.M)
    assert first and (first.group(1), int(first.group(2))) == (rule.CAUSE, example.line), out
    assert re.search(rf"`{re.escape(NAMES[rule.CAUSE, index])}[`.]", out), out


@pytest.mark.parametrize("rule,example", examples("GOOD"))
def test_every_clean_example_reports_nothing_in_the_cell(shell, rule, example):
    skip_without(example)
    result, out, _ = run_cell(shell, "%%gradwatch\n" + example.code)
    assert result.success, out
    assert "no problem seen" in out and "nb_autograd: problems" not in out, out


def test_silent_observations_give_the_silent_symptom_and_findings_not_diagnoses():
    source = "for step in range(3):\n    loss.backward()\n    opt.step()\n"
    quiet = Capture(source=source, filename="<x>", failure=None, watched=True)
    assert build(quiet).symptom is None
    seen = Capture(source=source, filename="<x>", failure=None, watched=True,
                   silent=(GradsAccumulated(step_line=3, backward_line=2, steps=2),))
    assert build(seen).symptom.id == "silent"
    report = analyze(seen, "en")
    assert report.diagnoses == () and [(f.cause, f.line) for f in report.findings] == [("grads_not_zeroed", 2)]
    assert "`opt.zero_grad()`" in report.findings[0].hint


def test_kept_graph_outside_a_loop_falls_back_to_the_line_that_made_it():
    source = "x = make()\nkept = x\n"
    capture = Capture(source=source, filename="<x>", failure=None, watched=True,
                      silent=(KeptGraph(path="kept", nodes=9, live_bytes=4096, iterations=3, lines=(1,)),))
    finding = analyze(capture, "zh").findings[0]
    assert (finding.cause, finding.line) == ("graph_kept_alive", 1)
    assert "`kept`" in finding.what and "4.0 KB" in finding.what


def test_growth_that_starts_late_is_still_seen():
    """After 8 same-sized backward calls the watcher walks only every 8th graph; a loop that
    starts keeping graphs alive later must still be reported."""
    import nb_autograd

    report = nb_autograd.diagnose("""\
import torch
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
total = 0.0
for step in range(40):
    opt.zero_grad()
    loss = model(torch.randn(8, 4)).pow(2).mean()
    loss.backward()
    opt.step()
    total = total + (loss if step >= 16 else loss.item())
""")
    assert report.error is None
    assert [(f.cause, f.line) for f in report.findings][:1] == [("graph_kept_alive", 10)]
