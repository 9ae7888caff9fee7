"""The public API: nb_autograd.diagnose(source, lang=...) -> Report."""
from __future__ import annotations

import pytest

import nb_autograd
from nb_autograd.rules.second_backward import tensor_reused_across_iterations as reused


def test_report_fields():
    report = nb_autograd.diagnose(reused.BAD[0].code)
    assert report.error.startswith("RuntimeError: Trying to backward through the graph a second time")
    d = report.diagnoses[0]
    assert (d.cause, d.line) == ("tensor_reused_across_iterations", 13)
    assert d.title and d.explanation and isinstance(d.fixes, tuple)
    for fix in d.fixes:
        assert fix.kind and fix.title and fix.patched_source


def test_watched_report_tells_the_recorded_story():
    report = nb_autograd.diagnose(reused.BAD[0].code)
    assert report.watched
    assert "created at line 11 (iteration 0)" in report.trace
    assert "freed by the backward at line 18 (iteration 0)" in report.trace
    assert "line 18 (iteration 1) reached it again through line 15" in report.trace


def test_without_the_watcher_the_cause_is_still_found():
    report = nb_autograd.diagnose(reused.BAD[0].code, watch=False)
    assert (report.top.cause, report.top.line) == ("tensor_reused_across_iterations", 13)


def test_chinese():
    report = nb_autograd.diagnose(reused.BAD[0].code, lang="zh")
    assert report.top.title == "复用了之前迭代中仍连着计算图的张量"


def test_bad_input():
    with pytest.raises(ValueError):
        nb_autograd.diagnose("x = 1", lang="fr")
    with pytest.raises(SyntaxError):
        nb_autograd.diagnose("def broken(:\n")


def test_clean_code():
    report = nb_autograd.diagnose("import torch\nx = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\n")
    assert report.error is None and report.diagnoses == ()
