"""Report.to_dict and the widget's payload for a fix that changes two cells: the other cell
travels with it ("also"), and a one-cell fix keeps exactly the contract's keys."""
from __future__ import annotations

from nb_autograd.capture.records import Place
from nb_autograd.report import Diagnosis, Edit, Fix, Report
from nb_autograd.view.payload import diagnosis as payload_of

STEP_CELL, FAILING = Place(6, "c4"), Place(7, "c3")
MOVE = Fix("move_step_after_backward", "Call the optimizer step after this backward", "loss_small.backward()\nopt.step()\n",
           target=FAILING, also=(Edit(STEP_CELL, "print('stepped')\n", "-opt.step()"),))
ONE = Fix("add_detach", "Detach it", "h = h.detach()\n", target=FAILING)


def report(*fixes) -> Report:
    d = Diagnosis("inplace_modified_saved_tensor", 1, "t", "e", fixes=fixes, place=Place(6, "c4", None, 1))
    return Report("RuntimeError: x", (d,), cell_id="c3")


def test_a_two_cell_fix_carries_the_other_cell():
    fix = report(MOVE).to_dict()["diagnoses"][0]["fixes"][0]
    assert fix["where"] == {"cell": 7, "cell_id": "c3", "file": None}
    assert fix["also"] == [{"where": {"cell": 6, "cell_id": "c4", "file": None}, "patched_source": "print('stepped')\n"}]


def test_a_one_cell_fix_keeps_exactly_the_contract_keys():
    fix = report(ONE).to_dict()["diagnoses"][0]["fixes"][0]
    assert set(fix) == {"kind", "title", "where", "patched_source"}


def test_the_widget_gets_both_cells_to_change():
    r = report(MOVE)
    shown = payload_of(r, r.diagnoses[0], top=True)["fixes"][0]
    assert shown["cell_id"] == "c3" and shown["target"] == ""  # the failing cell itself
    assert shown["also"] == [{"diff": "-opt.step()", "source": "print('stepped')", "cell_id": "c4", "file": "",
                              "target": "In [6]"}]
