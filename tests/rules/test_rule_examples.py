"""Every rule's examples run: BAD raises the real error and this rule ranks first at the
right line; GOOD runs clean and gets no diagnosis."""
from __future__ import annotations

import pytest

import nb_autograd
from nb_autograd.rules.registry import all_rules
from tests.conftest import examples, skip_without


@pytest.mark.parametrize("rule,example", examples("BAD"))
def test_bad_example_is_named_first_at_its_line(rule, example):
    skip_without(example)
    report = nb_autograd.diagnose(example.code)
    assert report.error is not None, "the BAD example must raise the real error"
    assert report.diagnoses, f"no diagnosis for {report.error}"
    top = report.diagnoses[0]
    assert (top.cause, top.line) == (rule.CAUSE, example.line), [(d.cause, d.line) for d in report.diagnoses]


@pytest.mark.parametrize("rule,example", examples("GOOD"))
def test_good_example_runs_clean_with_no_diagnosis(rule, example):
    skip_without(example)
    report = nb_autograd.diagnose(example.code)
    assert report.error is None, report.error
    assert report.diagnoses == ()


def test_every_rule_has_bad_and_good_examples_and_a_docstring():
    for rule in all_rules():
        assert rule.__doc__ and rule.BAD and rule.GOOD, rule.CAUSE


def test_rule_file_names_are_the_taxonomy_ids():
    family_a = {"double_backward", "accumulated_loss_backward_in_loop", "tensor_reused_across_iterations",
                "recurrent_state_not_detached", "computed_before_loop", "shared_subgraph_multiple_backward"}
    assert family_a <= {r.CAUSE for r in all_rules()}
