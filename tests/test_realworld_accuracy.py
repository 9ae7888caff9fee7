"""The real-world development set's tuning part (tests/realworld/scripts/tuning: programs
reproduced from public reports, each citing its source) held to the levels reached on it.

These are regression floors, not claims: the rules were tuned on these cases. The README's
headline numbers come from the sealed part, scored once. The issue's targets (family A cause
95 %, line 90 %, first fix runs 90 %, trains like the expert 85 %; family B runs 90 %, like the
expert 75 %; silent found 90 % each with a fix that runs) are not met yet: TARGETS says so."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TUNING = ROOT / "tests" / "realworld" / "scripts" / "tuning"
spec = importlib.util.spec_from_file_location("accuracy", ROOT / "benchmarks" / "accuracy.py")
accuracy = sys.modules.setdefault("accuracy", importlib.util.module_from_spec(spec))
if not hasattr(accuracy, "evaluate"):
    spec.loader.exec_module(accuracy)

FLOORS = {  # counts reached on the tuning part; raise them as the rules improve, never lower them
    "family_a": {"cause": 77, "line": 52, "fix_runs_clean": 73, "fix_matches_expert": 58},
    "family_b": {"cause": 38, "line": 34, "fix_runs_clean": 35, "fix_matches_expert": 27},
    "family_c": {"cause": 31, "line": 22, "fix_runs_clean": 29, "fix_matches_expert": 28},
}  # ("like the expert" one under what was reached: it compares trained floats; family C one under
#  on all four: after the whole suite, graphs other tests leave alive use up part of the budget of
#  autograd nodes the capture may touch (capture/touch.py), and one silent case (s21 TorchSim)
#  then reads too little of its history to name it; alone it is right in full)
TARGETS = {"family_a": {"cause": 0.95, "line": 0.9, "fix_runs_clean": 0.9, "fix_matches_expert": 0.85},
           "family_b": {"fix_runs_clean": 0.9, "fix_matches_expert": 0.75},
           "family_c": {"cause": 0.9, "fix_runs_clean": 0.9}}


@pytest.mark.parametrize("family", sorted(FLOORS))
def test_tuning_part_keeps_its_levels(family):
    results = [r for r in (accuracy.evaluate(p) for p in accuracy.cases([TUNING / family])) if r is not None]
    got = accuracy.summary(results)[family]
    print(family, got, "targets", {k: f"{v:.0%}" for k, v in TARGETS[family].items()})
    assert got["cases"] >= 10
    assert all(got[k] >= v for k, v in FLOORS[family].items()), (got, FLOORS[family])


def test_no_diagnosis_on_any_correct_program():
    results = [r for r in (accuracy.evaluate(p) for p in accuracy.cases([TUNING / "clean"])) if r is not None]
    assert len(results) >= 20
    assert [r.name for r in results if r.named is not None] == []
