"""The shared plumbing: statements by line, diffs with headers, detach parenthesising."""
import libcst as cst

from nb_autograd.fixes.cst import code_of, detached, expr, load, unified_diff


def test_statement_at_a_line_is_the_innermost():
    tree = load("for i in x:\n    if i:\n        y = 1\n")
    assert isinstance(tree.statement(2), cst.If) and isinstance(tree.statement(3), cst.SimpleStatementLine)
    assert load("x = (") is None


def test_diff_has_headers_even_without_a_final_newline():
    d = unified_diff("a\nb", "a\nc")
    assert d.startswith("--- a/cell\n+++ b/cell\n@@ ") and d.endswith("+c\n")


def test_detached_parenthesises_loose_expressions():
    assert code_of(detached(expr("x"))) == "x.detach()"
    assert code_of(detached(expr("a * b"))) == "(a * b).detach()"
    assert code_of(detached(expr("(a * b)"))) == "(a * b).detach()"


def test_a_program_joined_from_a_cell_and_a_file_with_a_future_import_parses():
    from nb_autograd.fixes.cst import parses

    joined = "import torch\nx = torch.ones(1)\nfrom __future__ import print_function\ndef show(t):\n    print(t)\n"
    assert parses(joined)
    assert not parses(joined + "def broken(:\n")


def test_the_backward_of_a_one_line_update_and_its_optimizer_calls():
    from nb_autograd.fixes.cst import backward_line_call, load, optimizer_call
    tree = load("opt.zero_grad(); loss.backward(); opt.step()\nx = 1; loss.backward()\nopt.step(); opt.zero_grad()\n")
    one_line, assigned, steps = tree.module.body
    assert tree.module.code_for_node(backward_line_call(one_line, tree)) == "loss.backward()"
    assert backward_line_call(assigned, tree) is None  # not a line of plain calls
    assert optimizer_call(steps) and not optimizer_call(one_line)
