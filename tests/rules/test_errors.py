"""Family-B rules (other autograd errors), real torch, no mocks: each BAD example raises the
real error, its rule ranks first at the example's line, the first fix equals `fixed`, parses
and runs clean; explanations exist in English and Chinese. Device mismatch also runs on CPU
by feeding torch's real CUDA messages through the pipeline with the failing cell line."""
from __future__ import annotations

import ast

import pytest

import nb_autograd
from nb_autograd.capture.records import Capture, Failure
from nb_autograd.capture.run import run_source
from nb_autograd.pipeline import analyze
from nb_autograd.rules.registry import all_rules
from tests.conftest import skip_without

FAMILY_B = ("inplace_modified_saved_tensor", "no_grad_fn", "non_scalar_backward", "leaf_inplace",
            "numpy_on_grad_tensor", "device_mismatch")


def _examples(kind: str):
    params = []
    for rule in all_rules():
        if rule.CAUSE in FAMILY_B:
            for i, ex in enumerate(getattr(rule, kind)):
                marks = [pytest.mark.gpu] if "cuda" in ex.needs else []
                params.append(pytest.param(rule, ex, id=f"{rule.CAUSE}-{i}", marks=marks))
    return params


def test_every_family_b_cause_has_a_rule_with_enough_examples():
    rules = {r.CAUSE: r for r in all_rules()}
    for cause in FAMILY_B:
        assert cause in rules, cause
        assert len(rules[cause].BAD) >= 3 and len(rules[cause].GOOD) >= 2, cause


@pytest.mark.parametrize("rule,example", _examples("BAD"))
def test_first_fix_is_the_expected_patch_and_runs_clean(rule, example):
    skip_without(example)
    report = nb_autograd.diagnose(example.code)
    top = report.top
    assert top is not None and (top.cause, top.line) == (rule.CAUSE, example.line), \
        [(d.cause, d.line) for d in report.diagnoses]
    assert top.fixes, "no fix proposed"
    patched = top.fixes[0].patched_source
    ast.parse(patched)
    if example.fixed is not None:
        assert patched == example.fixed, top.fixes[0].diff
    assert run_source(patched, watch=False).failure is None, "the fixed cell still fails"


@pytest.mark.parametrize("rule,example", _examples("BAD")[::4])
def test_explanations_in_both_languages_fill_every_placeholder(rule, example):
    skip_without(example)
    capture = run_source(example.code)
    for lang in ("en", "zh"):
        top = analyze(capture, lang).top
        assert top.title and top.what and top.why and "{" not in top.explanation, top.explanation
        assert "?" not in top.what, top.what
        assert str(example.line) in top.what


def test_catalogs_have_the_same_keys_in_both_languages():
    from nb_autograd.i18n import catalog

    for cause in (*FAMILY_B, "fix"):
        assert set(catalog("en")[cause]) == set(catalog("zh")[cause]), cause


# torch 2.13's own wordings (ATen/TensorIterator.cpp, ATen/core/adaption.cpp, CPU addmm),
# each with the cell line the error is raised at for the device_mismatch BAD examples.
CUDA_MESSAGES = (
    "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! "
    "(when checking argument for argument mat1 in method wrapper_CUDA_addmm)",
    "Expected all tensors to be on the same device, but got mat1 is on cpu, different from other tensors "
    "on cuda:0 (when checking argument in method wrapper_CUDA_addmm)",
    "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
)
RAISED_AT = ((5,), (6,), (14, 10))  # cell lines on the failing stack, outermost first


@pytest.mark.parametrize("message", CUDA_MESSAGES)
@pytest.mark.parametrize("index", range(3))
def test_device_mismatch_on_cpu_with_the_real_cuda_message(message, index):
    from nb_autograd.rules.errors import device_mismatch

    example = device_mismatch.BAD[index]
    capture = Capture(source=example.code, filename="<nb_autograd>",
                      failure=Failure("RuntimeError", message, stack_lines=RAISED_AT[index]))
    for lang in ("en", "zh"):
        top = analyze(capture, lang).top
        assert (top.cause, top.line) == ("device_mismatch", example.line)
        assert "cuda:0" in top.what and "cpu" in top.what and "{" not in top.what
    fix = top.fixes[0]
    assert fix.patched_source == example.fixed, fix.diff
    # on this machine the patched cell must run clean once its device is the CPU
    assert run_source(fix.patched_source.replace('"cuda"', '"cpu"'), watch=False).failure is None


DRAWING = """\
import numpy as np

def draw(outputs):
    boxes, scores = [t[:3].numpy() for t in outputs]
    return np.concatenate([boxes.ravel(), scores])
"""
PREDICTING = """\
import torch
from drawing import draw
torch.manual_seed(0)
net = torch.nn.Linear(4, 6)
net.eval()
image = torch.randn(5, 4)
out = net(image)
outputs = (out[:, :4], out[:, 4])
picture = draw(outputs)
"""


def test_predictions_drawn_by_an_imported_helper_run_under_no_grad_where_the_model_ran(tmp_path, monkeypatch):
    """Nothing in the program backpropagates and the conversion sits in a user file: the
    forward that made the graph is named, and its fix is no_grad there (Yolact_minimal#9)."""
    (tmp_path / "drawing.py").write_text(DRAWING)
    monkeypatch.syspath_prepend(str(tmp_path))
    report = nb_autograd.diagnose(PREDICTING)
    top = report.diagnoses[0]
    assert (top.cause, top.line) == ("numpy_on_grad_tensor", 7)
    assert top.fixes[0].kind == "wrap_no_grad" and "with torch.no_grad():\n    out = net(image)" in top.fixes[0].patched_source
    assert nb_autograd.diagnose(top.fixes[0].patched_source).error is None
    trained = nb_autograd.diagnose(PREDICTING + "out.sum().backward()\n")  # a program that trains: the conversion is named
    assert trained.diagnoses[0].line != 7


RANKING = """\
import torch

def average_precision(scores, labels):
    hits = labels[scores.argsort(descending=True)].float()
    precision = hits.cumsum(0) / torch.arange(1, len(hits) + 1)
    return (precision * hits).sum() / hits.sum()
"""
RANKED = """\
import torch
import ranking
scores = torch.tensor([0.2, 0.9, 0.4], requires_grad=True)
labels = torch.tensor([0, 1, 1])
loss = 1 - ranking.average_precision(scores, labels)
loss.backward()
"""


def test_a_loss_from_a_library_metric_without_a_graph_is_named_where_it_is_computed(tmp_path, monkeypatch):
    """A rank-based metric used as the loss (torchmetrics#388): its result has no graph though
    its input requires grad; the line that computes it is named, with no patch offered (the
    expert trains with another loss)."""
    (tmp_path / "ranking.py").write_text(RANKING)
    monkeypatch.syspath_prepend(str(tmp_path))
    top = nb_autograd.diagnose(RANKED).diagnoses[0]
    assert (top.cause, top.line) == ("no_grad_fn", 5)
    assert "`ranking`" in top.explanation and "not differentiable" in top.explanation
