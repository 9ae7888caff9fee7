"""Statement marks: code compiled with them behaves as the plain compile's (values, docstrings,
`__future__`, line numbers of tracebacks, torch.compile), and reports what it runs."""
from __future__ import annotations

import ast
import traceback

import pytest
import torch

from nb_autograd.capture import marks
from nb_autograd.capture.marks import compile_marked, is_marked
from nb_autograd.capture.run import register_source
from nb_autograd.capture.watch import Watcher

SOURCE = '''\
"""A cell's docstring."""
from __future__ import annotations
import torch


def outer(n: int) -> list:
    """Doc of outer."""
    def inner(k):
        if k % 2:
            return k * 10
        return
    out = [inner(k) for k in range(n)]
    return out


class Box:
    """Doc of Box."""
    size: int = 3

    def grow(self):
        self.size += 1


def fails(x):
    loss = (x * 2).exp().sum()
    loss.backward()
    for _ in range(2):
        loss.backward()
    return loss


result = outer(4)
box = Box()
box.grow()
'''


def run(source: str, filename: str, marked: bool) -> dict:
    register_source(filename, source)
    code = compile_marked(source, filename) if marked else compile(source, filename, "exec", dont_inherit=True)
    assert is_marked(code) is marked
    namespace: dict = {"__name__": "__main__"}
    exec(code, namespace)
    return namespace


def test_marked_code_computes_the_same_and_keeps_docstrings_and_annotations():
    plain, marked = run(SOURCE, "<plain>", False), run(SOURCE, "<marked>", True)
    assert marked["result"] == plain["result"] == [None, 10, None, 30]
    assert marked["box"].size == 4
    assert marked["__doc__"] == "A cell's docstring."
    assert marked["outer"].__doc__ == "Doc of outer." and marked["Box"].__doc__ == "Doc of Box."
    assert marked["outer"].__annotations__ == {"n": "int", "return": "list"}  # the __future__ import still applies


@pytest.mark.parametrize("listening", [False, True])
def test_a_traceback_through_a_marked_function_shows_the_same_lines(listening):
    def lines(marked: bool) -> list[tuple[str, int]]:
        ns = run(SOURCE, "<tb>", marked)
        watcher = Watcher("<tb>", top_code=None, ops=False)
        if listening:
            watcher.start()
        try:
            ns["fails"](torch.ones(3, requires_grad=True))
        except RuntimeError as exc:
            return [(f.name, f.lineno) for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<tb>"]
        finally:
            watcher.stop()
        raise AssertionError("no error")

    assert lines(True) == lines(False) == [("fails", 28)]


def test_torch_compile_traces_through_the_marks_with_fullgraph():
    source = ("import torch\n@torch.compile(backend='eager', fullgraph=True)\ndef f(x):\n    y = x * 2\n"
              "    return y.sin().sum()\nx = torch.randn(4, requires_grad=True)\nout = f(x)\nout.backward()\n")
    register_source("<compiled>", source)
    code = compile_marked(source, "<compiled>")
    watcher = Watcher("<compiled>", top_code=code)
    assert not watcher.ops
    namespace: dict = {}
    watcher.start()
    try:
        exec(code, namespace)
    finally:
        watcher.stop()
    assert torch.allclose(namespace["x"].grad, 2 * torch.cos(2 * namespace["x"].detach()))
    assert watcher.origin(namespace["out"].grad_fn._sequence_nr()) == (7, 0)


def test_a_marked_function_called_with_no_watcher_listening_records_nothing():
    ns = run(SOURCE, "<idle>", True)
    assert marks._LISTENERS == []
    assert ns["outer"](3) == [None, 10, None]


def test_statements_that_make_no_node_go_unmarked_and_the_others_keep_their_lines():
    source = ("import torch\nw = torch.ones(3, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
              "opt.zero_grad()\nloss = (w * 2).pow(2).sum()\nloss.backward(create_graph=True)\nopt.step()\n"
              "g = w.grad * 1\nopt.step(lambda: (w * 3).sum())\n")
    register_source("<nodefree>", source)
    code = compile_marked(source, "<nodefree>")
    watcher = Watcher("<nodefree>", top_code=code)
    namespace: dict = {}
    watcher.start()
    try:
        exec(code, namespace)
    finally:
        watcher.stop()
    seq = lambda t: t.grad_fn._sequence_nr()  # noqa: E731
    assert watcher.origin(seq(namespace["loss"]))[0] == 5
    assert watcher.origin(seq(namespace["w"].grad))[0] == 6  # made by the backward itself
    assert watcher.origin(seq(namespace["g"]))[0] == 8       # after an unmarked step
    assert marks._makes_no_node(ast.parse("opt.zero_grad()").body[0])
    assert marks._makes_no_node(ast.parse("self.opt_g.step()").body[0])
    assert marks._makes_no_node(ast.parse("loss.backward(retain_graph=True)").body[0])
    assert not marks._makes_no_node(ast.parse("loss.backward(create_graph=True)").body[0])
    assert not marks._makes_no_node(ast.parse("opt.step(closure)").body[0])
    assert not marks._makes_no_node(ast.parse("trainer.step()").body[0])
    assert not marks._makes_no_node(ast.parse("(a + b).backward()").body[0])
