"""Readings of one syntax node: the names rules and fixes compare."""
from __future__ import annotations

import ast

from nb_autograd.evidence.syntax import add_operands, dotted, is_detached, keyed, names_read, target_names


def _expr(text: str) -> ast.AST:
    return ast.parse(text, mode="eval").body


def test_dotted_names_and_subscripts_read_as_their_container():
    assert dotted(_expr("model.layer.weight")) == "model.layer.weight"
    assert dotted(_expr("temp[0]")) == "temp"
    assert dotted(_expr("f(x).y")) is None


def test_names_read_include_each_prefix_and_keyed_slots():
    read = names_read(_expr("self.h.sum() + meter['total'] * w"))
    assert {"self", "self.h", "w", "meter", "meter['total']"} <= read
    assert keyed(_expr("totals[k]")) == "totals[k]" and keyed(_expr("totals[i + 1]")) is None


def test_targets_unpack_tuples_and_keep_keyed_slots():
    target = ast.parse("(h, c), meter['n'] = 1, 2").body[0].targets[0]
    assert target_names(target) == ["h", "c", "meter['n']"]


def test_detached_values_are_told_from_graph_values():
    for text in ("h.detach()", "(h.detach(), c.detach())", "loss.item()", "float(loss)", "x.data", "h.detach().clone()"):
        assert is_detached(_expr(text)), text
    for text in ("h", "(h.detach(), c)", "h.clone()", "model(x)"):
        assert not is_detached(_expr(text)), text
    assert [ast.unparse(n) for n in add_operands(_expr("a + b - c * d"))] == ["a", "b", "c * d"]


def test_a_device_or_dtype_move_reads_as_the_call_that_made_the_value():
    from nb_autograd.evidence.syntax import unmoved

    assert ast.unparse(unmoved(_expr("LinReg(n).to(DEVICE)"))) == "LinReg(n)"
    assert ast.unparse(unmoved(_expr("torch.zeros(2, 3).cuda().double()"))) == "torch.zeros(2, 3)"
    assert ast.unparse(unmoved(_expr("model(x).sum()"))) == "model(x).sum()"
    assert ast.unparse(unmoved(_expr("x.to(DEVICE)"))) == "x.to(DEVICE)"
