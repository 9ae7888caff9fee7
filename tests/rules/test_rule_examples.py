"""Every rule's examples run: BAD raises the real error and this rule ranks first at the
right line (silent rules: BAD runs clean and the finding is reported first at the right
line); GOOD runs clean and gets no diagnosis and no finding."""
from __future__ import annotations

import pytest

import nb_autograd
from nb_autograd.rules.registry import all_rules
from tests.conftest import examples, skip_without


@pytest.mark.parametrize("rule,example", examples("BAD"))
def test_bad_example_is_named_first_at_its_line(rule, example):
    skip_without(example)
    report = nb_autograd.diagnose(example.code)
    if rule.SYMPTOM == "silent":
        assert report.error is None, "a silent BAD example must run clean"
        assert report.findings, "the silent problem was not reported"
        ranked = report.findings
    else:
        assert report.error is not None, "the BAD example must raise the real error"
        assert report.diagnoses, f"no diagnosis for {report.error}"
        ranked = report.diagnoses
    top = ranked[0]
    assert (top.cause, top.line) == (rule.CAUSE, example.line), [(d.cause, d.line) for d in ranked]


@pytest.mark.parametrize("rule,example", examples("GOOD"))
def test_good_example_runs_clean_with_no_diagnosis(rule, example):
    skip_without(example)
    report = nb_autograd.diagnose(example.code)
    assert report.error is None, report.error
    assert report.diagnoses == ()
    assert report.findings == (), [(f.cause, f.line) for f in report.findings]


def test_every_rule_has_bad_and_good_examples_and_a_docstring():
    for rule in all_rules():
        assert rule.__doc__ and rule.BAD and rule.GOOD, rule.CAUSE


def test_rule_file_names_are_the_taxonomy_ids():
    family_a = {"double_backward", "accumulated_loss_backward_in_loop", "tensor_reused_across_iterations",
                "recurrent_state_not_detached", "computed_before_loop", "shared_subgraph_multiple_backward"}
    family_c = {"graph_kept_alive", "grads_not_zeroed"}
    assert family_a | family_c <= {r.CAUSE for r in all_rules()}


def test_a_rule_whose_cause_is_not_its_module_name_fails_loudly():
    import types

    from nb_autograd.rules.registry import checked

    wrong = types.ModuleType("nb_autograd.rules.errors.no_grad_fn")
    wrong.CAUSE = "no_grad"
    with pytest.raises(RuntimeError, match="!= module name"):
        checked(wrong)
    for rule in all_rules():
        assert checked(rule) is rule
