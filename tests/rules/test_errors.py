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
