"""The extension in a real IPython shell: hook, chaining, unload, %debug, guarded failures."""
from __future__ import annotations

import sys

from nb_autograd.capture.backwards import RECORDER
from nb_autograd.rules.second_backward import shared_subgraph_multiple_backward as shared
from tests.conftest import run_cell

FAILING = shared.BAD[0].code


def test_native_traceback_prints_first_then_the_explanation(shell):
    result, out, err = run_cell(shell, FAILING)
    assert isinstance(result.error_in_exec, RuntimeError)
    traceback_at = out.index("Trying to backward through the graph a second time")
    explanation_at = out.index("[shared_subgraph_multiple_backward]")
    assert traceback_at < explanation_at
    assert "line 6 | m.backward()" in out  # named at the first backward: the one the fix replaces


def test_debug_still_finds_the_traceback(shell):
    run_cell(shell, FAILING)
    assert sys.last_type is RuntimeError
    assert "a second time" in str(sys.last_value)
    assert shell.InteractiveTB.tb is not None or sys.last_traceback is not None


def test_errors_that_are_not_autograd_errors_are_left_alone(shell):
    _, plain_out, _ = run_cell(shell, "raise RuntimeError('boom, not autograd')")
    assert "boom, not autograd" in plain_out and "nb_autograd" not in plain_out
    _, out, _ = run_cell(shell, "1/0")
    assert "ZeroDivisionError" in out and "nb_autograd" not in out


def test_unload_restores_the_previous_handler_and_torch(ipython):
    import torch

    calls = []

    def other(shell, etype, value, tb, tb_offset=None):
        calls.append(etype)
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)

    ipython.set_custom_exc((ValueError,), other)
    before = (ipython.custom_exceptions, ipython.CustomTB)
    engine = torch.autograd.graph._engine_run_backward
    ipython.run_line_magic("load_ext", "nb_autograd")
    try:
        run_cell(ipython, "raise ValueError('theirs')")
        assert calls == [ValueError], "the handler that was there before is still called"
        _, out, _ = run_cell(ipython, FAILING)
        assert "[shared_subgraph_multiple_backward]" in out
    finally:
        ipython.run_line_magic("unload_ext", "nb_autograd")
    assert (ipython.custom_exceptions, ipython.CustomTB) == before
    assert torch.autograd.graph._engine_run_backward is engine
    assert torch.autograd._engine_run_backward is engine
    assert not RECORDER.installed
    ipython.set_custom_exc((), None)


def test_reload_gives_exactly_one_explanation(shell):
    shell.run_line_magic("reload_ext", "nb_autograd")
    _, out, _ = run_cell(shell, FAILING)
    assert out.count("[shared_subgraph_multiple_backward]") == 1


def test_a_rule_that_raises_is_skipped_and_the_traceback_still_prints(shell, monkeypatch):
    def broken(evidence):
        raise KeyError("rule bug")

    monkeypatch.setattr(shared, "match", broken)
    result, out, err = run_cell(shell, FAILING)
    assert "Trying to backward through the graph a second time" in out
    assert isinstance(result.error_in_exec, RuntimeError)
    assert "rule bug" not in out + err


def test_an_internal_failure_prints_one_line(shell, monkeypatch):
    import nb_autograd.ipython as layer

    def broken(report, shell=None):
        raise OSError("display broke")

    monkeypatch.setattr(layer, "show", broken)
    _, out, err = run_cell(shell, FAILING)
    assert "Trying to backward through the graph a second time" in out
    assert [l for l in err.splitlines() if "display broke" in l] == [err.strip()]
    _, out, _ = run_cell(shell, "1/0")
    assert "ZeroDivisionError" in out, "the hook stays registered after our failure"


def test_language_switch(shell):
    _, out, _ = run_cell(shell, "%nb_autograd lang zh")
    _, out, _ = run_cell(shell, FAILING)
    assert "两个损失共享部分计算图" in out
    _, out, err = run_cell(shell, "%nb_autograd lang fr")
    assert "invalid choice: 'fr'" in out + err  # IPython's magic_arguments: a clear UsageError


def test_magic_options_are_parsed_and_checked(shell):
    _, out, err = run_cell(shell, "%%gradwatch --lang=zh\nx = 1")
    assert "没有发现问题" in out  # `--opt=value` works
    _, out, err = run_cell(shell, "%%gradwatch --lnag zh\nx = 1")
    assert "unrecognized arguments: --lnag" in out + err  # a typo is an error, not silently ignored
    _, out, err = run_cell(shell, "%gradfix --bogus")
    assert "unrecognized arguments: --bogus" in out + err
    run_cell(shell, "%nb_autograd lang en")


def test_gradwatch_explains_with_recorded_provenance(shell):
    _, out, _ = run_cell(shell, "%%gradwatch\n" + FAILING)
    assert "[shared_subgraph_multiple_backward]" in out
    assert "created at line 3 (iteration 0)" in " ".join(out.split())  # the text view wraps lines
