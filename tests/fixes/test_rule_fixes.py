"""Every family-A BAD example gets a ranked fix that is right, not a band-aid: it parses,
equals the example's `fixed`, re-applies to nothing, runs clean, and trains the same
parameters as the reference."""
from __future__ import annotations

import ast

import pytest

import nb_autograd
from nb_autograd.fixes.plan import codemod
from nb_autograd.fixes.add_retain_graph import add_retain_graph
from nb_autograd.rules.second_backward import accumulated_loss_backward_in_loop as accumulated
from tests.conftest import examples, skip_without
from tests.fixes.helpers import run, same_training, trained_state

BAD = examples("BAD", "second_backward")


@pytest.fixture(scope="module")
def reports():
    cache: dict = {}

    def get(code: str, lang: str = "en"):
        if (code, lang) not in cache:
            cache[code, lang] = nb_autograd.diagnose(code, lang=lang)
        return cache[code, lang]
    return get


@pytest.mark.parametrize("rule,example", BAD)
def test_top_fix_parses_matches_and_is_idempotent(rule, example, reports):
    skip_without(example)
    top = reports(example.code).top
    assert top is not None and top.cause == rule.CAUSE and top.fixes, "no fix for a BAD example"
    first = top.fixes[0]
    ast.parse(first.patched_source)
    if example.fixed is not None:
        assert first.patched_source == example.fixed
    for fix in top.fixes:
        ast.parse(fix.patched_source)
        assert fix.diff.startswith("--- a/cell\n+++ b/cell\n@@ ")
        again = codemod(fix.kind)(fix.patched_source, **dict(fix.where))
        assert again in (None, fix.patched_source), f"{fix.kind} is not idempotent"


@pytest.mark.parametrize("rule,example", BAD)
def test_top_fix_runs_clean_and_trains_like_the_reference(rule, example, reports):
    skip_without(example)
    patched = reports(example.code).top.fixes[0].patched_source
    after = run(patched)  # raises if the fix does not cure the cell
    assert nb_autograd.diagnose(patched).error is None
    if example.fixed is not None:
        assert same_training(trained_state(after), trained_state(run(example.fixed)))


@pytest.mark.parametrize("rule,example", BAD)
def test_retain_graph_is_last_with_its_memory_cost_and_only_where_meant(rule, example, reports):
    skip_without(example)
    top = reports(example.code).top
    kinds = [f.kind for f in top.fixes]
    if "add_retain_graph" in kinds:
        assert kinds.index("add_retain_graph") == len(kinds) - 1
        assert "memory" in top.fixes[-1].note.lower()
        assert rule.CAUSE in {"double_backward", "shared_subgraph_multiple_backward"} or \
            rule.CAUSE == "computed_before_loop" and "Hessian" in top.what  # every product needs the graph


def test_a_band_aid_that_runs_clean_is_caught_by_the_training_comparison():
    """retain_graph on the accumulated loss runs, but backpropagates old terms again."""
    example = accumulated.BAD[0]
    band_aid = add_retain_graph(example.code, line=10)
    assert band_aid is not None
    ns = run(band_aid)
    assert not same_training(trained_state(ns), trained_state(run(example.fixed)))


def test_titles_and_notes_come_from_the_chosen_language(reports):
    from nb_autograd.rules.second_backward import shared_subgraph_multiple_backward as shared

    zh = reports(shared.BAD[0].code, "zh").top.fixes
    en = reports(shared.BAD[0].code).top.fixes
    assert [f.kind for f in zh] == [f.kind for f in en]
    assert all(a.title != b.title for a, b in zip(zh, en))
    assert "内存" in zh[-1].note and zh[0].patched_source == en[0].patched_source
