"""Every silent finding with a safe edit gets a fix held to the same checks as the errors'
fixes: it equals the example's `fixed`, re-applies to nothing, runs clean, is no longer
reported, and trains like the reference."""
from __future__ import annotations

import pytest

import nb_autograd
from nb_autograd.fixes.plan import codemod
from tests.conftest import examples, skip_without
from tests.fixes.helpers import run, same_training, trained_state

BAD = [p for p in examples("BAD", "silent") if p.values[1].fixed is not None]


def test_each_silent_cause_has_examples_with_fixes():
    assert {p.values[0].CAUSE for p in BAD} == {"graph_kept_alive", "grads_not_zeroed"}


@pytest.mark.parametrize("rule,example", BAD)
def test_silent_fix_is_the_reference_and_silences_the_finding(rule, example):
    skip_without(example)
    finding = nb_autograd.diagnose(example.code).findings[0]
    assert finding.cause == rule.CAUSE and finding.fixes, "no fix for a silent finding"
    first = finding.fixes[0]
    assert first.patched_source == example.fixed
    assert codemod(first.kind)(first.patched_source, **dict(first.where)) in (None, first.patched_source)
    after = nb_autograd.diagnose(first.patched_source)
    assert after.error is None and not any(f.cause == rule.CAUSE for f in after.findings)
    assert same_training(trained_state(run(first.patched_source)), trained_state(run(example.fixed)))


def test_a_total_that_is_backpropagated_is_not_detached():
    source = ("import torch\nw = torch.ones(2, requires_grad=True)\ntotal = 0\nfor i in range(3):\n"
              "    total += (w * i).sum()\ntotal.backward()\n")
    assert codemod("detach_accumulated")(source, line=5, name="total") is None
