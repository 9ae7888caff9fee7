"""The real-world notebooks' tuning part (tests/realworld/notebooks/tuning: notebooks
reproduced from public reports, run in real kernels with their cell ids) held to the levels
reached on it. Regression floors, not claims: the README's numbers come from the sealed part,
scored once at the end. (The tuning part's place, 83 %, is still under issue 10's 85 %.)"""
from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent / "realworld"
sys.path.insert(0, str(ROOT))
import score_notebooks  # noqa: E402

FLOORS = {"cause": 136, "place": 115, "fix_runs_clean": 128, "trains_like_expert": 118}  # one under the 137 / 116 / 129 / 119 of 140 reached


@pytest.mark.timeout(2400)  # 179 notebooks, each run twice or three times in fresh kernels
def test_tuning_notebooks_keep_their_levels():
    with ThreadPoolExecutor(2) as pool:
        scores = list(pool.map(score_notebooks.score, score_notebooks.folders([str(ROOT / "notebooks" / "tuning")])))
    got = score_notebooks.summary(scores)
    print(got)
    assert got["notebooks"] >= 140 and got["clean"] >= 39
    assert got["clean_quiet"] == got["clean"], [s.name for s in scores if not s.expected and s.named]
    assert all(got[k] >= v for k, v in FLOORS.items()), (got, FLOORS)
