"""Holders as rules ask for them: by name, and by the containers that hold their tensors."""
from __future__ import annotations

import nb_autograd
from nb_autograd.evidence import build

STATES_IN_A_LIST = """
import torch
cell = torch.nn.LSTMCell(3, 4)
states = [torch.zeros(1, 4), torch.zeros(1, 4)]
flat = torch.zeros(1, 4)
for step in range(3):
    h, c = cell(torch.randn(1, 3), tuple(states))
    states = [h, c]
    flat = flat + h
    (h.sum() + flat.sum()).backward()
"""


def test_item_containers_names_the_kind_that_holds_items_and_nothing_for_plain_tensors():
    report = nb_autograd.diagnose(STATES_IN_A_LIST)
    assert report.error and "second time" in report.error
    ev = build(report.capture)
    assert {h.path for h in ev.holders_of("states")} >= {"states[0]", "states[1]"}
    assert ev.item_containers("states") == {"list"}
    assert ev.holders_of("flat") and ev.item_containers("flat") == set()
    assert ev.item_containers("states", "flat") == {"list"}
    assert ev.item_containers("nowhere") == set()
