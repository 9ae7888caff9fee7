"""Putting a fix in place: `%gradfix` in a real IPython shell, and `nb-autograd fix` as a
subprocess. IPython 9.18's plain shell answers set_next_input by storing the text in
`rl_next_input` (the kernel's shell turns the same call into a payload)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from nb_autograd.rules.second_backward import accumulated_loss_backward_in_loop as accumulated
from tests.conftest import run_cell

EXAMPLE = accumulated.BAD[0]


@pytest.fixture
def failed(shell):
    shell.rl_next_input = None
    result, _, _ = run_cell(shell, EXAMPLE.code)
    assert result.error_in_exec is not None
    yield shell
    shell.rl_next_input = None


def test_gradfix_puts_the_top_fix_below(failed):
    _, out, err = run_cell(failed, "%gradfix")
    assert failed.rl_next_input == EXAMPLE.fixed.rstrip("\n")
    assert "fix 1" in out and "below" in out, (out, err)


def test_gradfix_2_puts_the_second_fix(failed):
    _, out, _ = run_cell(failed, "%gradfix 2")
    assert "step_loss.backward()" in failed.rl_next_input and "fix 2" in out


def test_gradfix_replace_says_it_replaces_this_cell(failed):
    _, out, _ = run_cell(failed, "%gradfix replace")
    assert failed.rl_next_input == EXAMPLE.fixed.rstrip("\n") and "in this cell" in out


def test_gradfix_out_of_range_says_how_many_there_are(failed):
    _, out, err = run_cell(failed, "%gradfix 9")
    assert failed.rl_next_input is None
    assert "no fix 9" in out + err and "has 2" in out + err


def test_gradfix_without_a_prior_error(shell):
    shell.rl_next_input = None
    _, out, err = run_cell(shell, "%gradfix")
    assert shell.rl_next_input is None and "run a failing cell first" in out + err


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "nb_autograd.cli", "fix", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_cli_prints_the_diff_and_writes_only_when_asked(tmp_path: Path):
    script = tmp_path / "train.py"
    script.write_text(EXAMPLE.code, encoding="utf-8")
    shown = _cli(str(script), cwd=tmp_path)
    assert shown.returncode == 1, shown.stderr  # the script raised: the CLI's exit status says so
    assert shown.stdout.startswith("--- a/train.py\n+++ b/train.py\n") and "-    loss.backward()\n+loss.backward()\n" in shown.stdout
    assert script.read_text(encoding="utf-8") == EXAMPLE.code
    written = _cli(str(script), "--index", "2", "--write", cwd=tmp_path)
    assert written.returncode == 1, written.stderr
    assert "step_loss.backward()" in script.read_text(encoding="utf-8")
    assert (tmp_path / "train.py.orig").read_text(encoding="utf-8") == EXAMPLE.code


def test_cli_bad_index_fails_clearly(tmp_path: Path):
    script = tmp_path / "train.py"
    script.write_text(EXAMPLE.code, encoding="utf-8")
    result = _cli(str(script), "--index", "9", cwd=tmp_path)
    assert result.returncode == 1 and "no fix 9" in result.stderr


def test_gradfix_of_a_two_cell_fix_places_one_cell_and_shows_the_other(shell):
    """set_next_input places one cell; the other cell's change is printed with its id, so a
    move is not left half made without the user being told."""
    shell.rl_next_input = None
    for cell in ("import torch\nnet = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))\n"
                 "opt = torch.optim.SGD(net.parameters(), lr=0.1)\nout = net(torch.randn(5, 3))\n"
                 "a, b = out.pow(2).mean(), out.abs().mean()\na.backward(retain_graph=True)",
                 "opt.step()\nprint('stepped')"):
        run_cell(shell, cell)
    result, _, _ = run_cell(shell, "b.backward()")
    assert result.error_in_exec is not None
    _, out, _ = run_cell(shell, "%gradfix replace")
    assert shell.rl_next_input == "b.backward()\nopt.step()"
    assert "also changes In [" in out and "-opt.step()" in out, out
    shell.rl_next_input = None


def test_a_fix_that_changes_two_files_shows_both_and_writes_both_or_none(tmp_path, capsys):
    from nb_autograd.capture.records import Place
    from nb_autograd.fixes.apply import write_file_fix
    from nb_autograd.report import Edit, Fix

    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("x = 1\n"), b.write_text("y = 2\n")
    fix = Fix("move_step_after_backward", "move", "x = 1\nstep()\n", diff="+step()", target=Place(file=str(a)),
              also=(Edit(Place(file=str(b)), "y = 2\n", "-step()"),))
    write_file_fix(fix, "en", 1, write=False)
    out = capsys.readouterr().out
    assert "+step()" in out and "-step()" in out and "--write" in out
    assert a.read_text() == "x = 1\n" and b.read_text() == "y = 2\n"  # nothing written unasked
    write_file_fix(fix, "en", 1, write=True)
    assert a.read_text() == "x = 1\nstep()\n" and b.read_text() == "y = 2\n"
    assert capsys.readouterr().out.count("wrote") == 2
