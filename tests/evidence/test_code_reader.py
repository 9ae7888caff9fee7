"""The facts read from a cell's code: loops, backward calls, assignments, stores, carried names."""
from __future__ import annotations

from nb_autograd.evidence.code_reader import read_code

CELL = """\
import torch
temp, meter = [], {"total": 0.0}
with torch.no_grad():
    frozen = encoder(x)
for i in range(10):
    h = fc1(a)
    temp.append(h)
    meter["total"] += loss
    ema = 0.9 * ema + 0.1 * h
    out, (hx, cx) = self.lstm(x, (hx, cx))
    prev = out.detach()
    loss.backward(retain_graph=True)
    g = torch.autograd.grad(loss, [w])
"""


def test_loops_backward_calls_and_their_lines():
    facts = read_code(CELL)
    assert [(l.line, l.end_line) for l in facts.loops] == [(5, 13)]
    assert [(b.line, b.kind, b.receiver, b.retain_graph) for b in facts.backwards] == [
        (12, "backward", "loss", True), (13, "grad", "loss", False)]


def test_assignments_know_accumulation_detach_no_grad_and_calls():
    facts = read_code(CELL)
    by_target = {a.targets: a for a in facts.assigns}
    assert by_target[("meter['total']",)].accumulates and by_target[("meter['total']",)].augmented
    assert not by_target[("ema",)].accumulates            # a decayed average is not a running sum
    assert by_target[("prev",)].detached
    assert by_target[("frozen",)].no_grad
    lstm = by_target[("out", "hx", "cx")]
    assert lstm.call == "self.lstm" and {"hx", "cx"} <= lstm.call_args


def test_stores_and_carried_names():
    facts = read_code(CELL)
    assert [(s.line, s.container, s.method, s.value) for s in facts.stores] == [
        (7, "temp", "append", "h"), (8, "meter", "setitem", "loss")]
    loop = facts.loops[0]
    assert facts.carried_in(loop, "ema") and facts.carried_in(loop, "hx")
    assert not facts.carried_in(loop, "h")


def test_code_that_does_not_parse_gives_lines_only():
    facts = read_code("for i in range(3)\n    pass\n")
    assert not facts.parsed and facts.lines == ("for i in range(3)", "    pass")
    assert facts.loops == () and facts.line_text(1) == "for i in range(3)"


def test_autograd_calls_are_read_through_the_imports():
    """`ag.grad(...)`, `G(...)`, `autograd.grad(...)` are backward sites like torch.autograd.grad."""
    for imported, call in (("from torch.autograd import grad as G", "G"), ("import torch.autograd as ag", "ag.grad"),
                           ("from torch import autograd", "autograd.grad")):
        facts = read_code(f"import torch\n{imported}\ng = {call}(loss, w)\n")
        assert [(b.line, b.kind, b.receiver) for b in facts.backwards] == [(3, "grad", "loss")], imported
    assert read_code("def G(a, b):\n    return a\ng = G(loss, w)\n").backwards == ()
