"""A cell's contract with the cells before it."""
from nb_autograd.evidence.cell_names import cell_contract, names_read


def test_a_name_read_before_it_is_assigned_comes_from_an_earlier_cell():
    stored, needed = cell_contract("out, h = rnn(x, h)\nloss = out.sum()")
    assert {"out", "h", "loss"} <= stored
    assert needed == {"rnn", "x", "h"}


def test_definitions_and_imports_are_stored_not_needed():
    stored, needed = cell_contract("import torch.nn as nn\ndef train(m):\n    return m(x)\nclass Net(nn.Module):\n    pass")
    assert {"nn", "train", "Net"} <= stored
    assert "x" in needed and "train" not in needed


def test_a_loop_reads_its_iterable_before_its_body():
    assert cell_contract("for x in xs:\n    total = total + x")[1] == {"xs", "total"}


def test_text_that_does_not_parse_reads_nothing():
    assert cell_contract("def (") == (set(), set())
    assert names_read("x = (") == set()
