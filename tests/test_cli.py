"""`nb-autograd diagnose|fix` as a user (or a CI job) runs it: the installed console script in
a separate process, real files, and the exit status: 0 ran clean and nothing found; 1 the code
raised (ours or not) or a silent problem was found; 2 bad input (one line on stderr)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nb_autograd.rules.second_backward import double_backward
from nb_autograd.rules.silent import grads_not_zeroed

SCRIPT = Path(sys.executable).with_name("nb-autograd")
CLI = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "nb_autograd"]
HEADING = "what went wrong"


def run(*args, cwd=None, cli=None):
    return subprocess.run([*(cli or CLI), *args], capture_output=True, text=True, timeout=180, cwd=cwd)


def test_json_has_exactly_the_documented_shape(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(double_backward.BAD[0].code)
    result = run("diagnose", str(script), "--json")
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)  # user prints went to stderr, stdout is pure JSON
    assert set(data) == {"error", "diagnoses"}
    assert data["error"].startswith("RuntimeError: Trying to backward")
    top = data["diagnoses"][0]
    assert set(top) == {"cause", "line", "where", "title", "explanation", "fixes"}
    assert (top["cause"], top["line"]) == ("double_backward", 8)
    assert top["where"] == {"cell": None, "cell_id": None, "file": str(script.resolve()), "line": 8}
    for fix in top["fixes"]:
        assert set(fix) == {"kind", "title", "where", "patched_source"}
        assert fix["where"] == {"cell": None, "cell_id": None, "file": str(script.resolve())}


def test_autograd_error_text_has_traceback_explanation_and_exit_1(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(double_backward.BAD[0].code)
    result = run("diagnose", str(script))
    assert result.returncode == 1, result.stderr
    out = result.stdout
    assert "Traceback" in out and 'File "' in out and "loss.backward()" in out
    assert "RuntimeError: Trying to backward" in out
    assert HEADING in out and "[double_backward]" in out
    assert "not an autograd error" not in out


def test_clean_file_gives_no_diagnoses_and_exit_0(tmp_path):
    script = tmp_path / "clean.py"
    script.write_text(double_backward.GOOD[0].code)
    result = run("diagnose", str(script), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"error": None, "diagnoses": []}
    result = run("diagnose", str(script))
    assert result.returncode == 0, result.stderr
    assert "no error" in result.stdout and HEADING not in result.stdout


def test_silent_problem_is_reported_and_exits_1(tmp_path):
    script = tmp_path / "silent.py"
    script.write_text(grads_not_zeroed.BAD[0].code)
    result = run("diagnose", str(script), "--json")
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["error"] is None
    assert [d["cause"] for d in data["diagnoses"]] == ["grads_not_zeroed"]
    result = run("diagnose", str(script))
    assert result.returncode == 1
    assert "[grads_not_zeroed]" in result.stdout


def test_text_output_in_chinese(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(double_backward.BAD[0].code)
    result = run("diagnose", str(script), "--lang", "zh")
    assert result.returncode == 1
    assert "对同一个计算图调用了两次 backward()" in result.stdout


FOREIGN = {
    "value_error": ("raise ValueError('bad config')\n", "ValueError: bad config"),
    "key_error": ("import torch\nraise KeyError('x')\n", "KeyError: 'x'"),
    "index_error": ("import torch\nx = torch.zeros(3)\nprint(x[5])\n", "IndexError: index 5 is out of bounds"),
    "matmul_shapes": ("import torch\na = torch.randn(2, 3, requires_grad=True)\nb = torch.randn(4, 5)\n"
                      "loss = (a @ b).sum()\nloss.backward()\n", "RuntimeError: mat1 and mat2 shapes cannot be multiplied"),
    "own_runtime_error": ("import os\nif not os.path.exists('ckpt.pt'):\n    raise RuntimeError('checkpoint missing')\n",
                          "RuntimeError: checkpoint missing"),
}


@pytest.mark.parametrize("name", sorted(FOREIGN))
def test_foreign_error_keeps_its_traceback_gets_no_diagnosis_and_exits_1(tmp_path, name):
    code, error = FOREIGN[name]
    script = tmp_path / "train.py"
    script.write_text(code)
    result = run("diagnose", str(script), cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    out = result.stdout
    assert "Traceback" in out and 'File "train.py"' in out and error in out, out
    assert HEADING not in out and "unrecognised" not in out and "autograd error does not match" not in out
    assert len([l for l in out.splitlines() if "autograd" in l]) == 1, out  # the one "not an autograd error" line
    assert "is not an autograd error" in out
    result = run("diagnose", str(script), "--json", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["diagnoses"] == [] and data["error"].startswith(error)
    assert HEADING not in result.stderr


def test_python_dash_m_is_the_same_command(tmp_path):
    script = tmp_path / "other.py"
    script.write_text("raise KeyError('x')\n")
    result = run("diagnose", str(script), "--json", cli=[sys.executable, "-m", "nb_autograd"])
    assert result.returncode == 1
    assert json.loads(result.stdout) == {"error": "KeyError: 'x'", "diagnoses": []}


def _bad_inputs(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("for i in range(3)\n    pass\n")
    binary = tmp_path / "binary.py"
    binary.write_bytes(b"\xff\xfe\x00bad")
    nul = tmp_path / "nul.py"
    nul.write_bytes(b"x = 1\x00\n")
    return tmp_path / "missing.py", tmp_path, broken, binary, nul


@pytest.mark.parametrize("command", ["diagnose", "fix"])
def test_bad_input_is_one_line_on_stderr_and_exit_2(tmp_path, command):
    for path in _bad_inputs(tmp_path):
        for extra in (["--json"] if command == "diagnose" else [], []):
            result = run(command, str(path), *extra)
            assert result.returncode == 2, (path, result)
            assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr


def _git(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_fix_prints_a_diff_that_git_apply_and_patch_accept(tmp_path):
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    script = repo / "src" / "train.py"
    script.write_text(double_backward.BAD[0].code.rstrip("\n"))  # no final newline: the marker must be right
    assert _git("init", "-q", cwd=repo).returncode == 0
    result = run("fix", "src/train.py", cwd=repo)
    assert result.returncode == 1, result.stderr  # the script raised
    diff = result.stdout
    assert diff.startswith("--- a/src/train.py\n+++ b/src/train.py\n"), diff
    (tmp_path / "fix.diff").write_text(diff)
    check = _git("apply", "--check", str(tmp_path / "fix.diff"), cwd=repo)
    assert check.returncode == 0, check.stderr
    if shutil.which("patch"):
        dry = subprocess.run(["patch", "-p1", "--dry-run", "-i", str(tmp_path / "fix.diff")], cwd=repo,
                             capture_output=True, text=True, timeout=60)
        assert dry.returncode == 0, dry.stdout + dry.stderr
    assert _git("apply", str(tmp_path / "fix.diff"), cwd=repo).returncode == 0
    after = run("diagnose", "src/train.py", "--json", cwd=repo)
    assert after.returncode == 0, after.stdout  # the fixed script runs clean


def test_fix_of_clean_script_exits_0_and_foreign_error_exits_1_without_diff(tmp_path):
    clean = tmp_path / "clean.py"
    clean.write_text(double_backward.GOOD[0].code)
    result = run("fix", str(clean))
    assert (result.returncode, result.stdout) == (0, "")
    other = tmp_path / "other.py"
    other.write_text("raise RuntimeError('checkpoint missing')\n")
    result = run("fix", str(other))
    assert (result.returncode, result.stdout) == (1, "")
    assert "not an autograd error" in result.stderr


# notebooks --------------------------------------------------------------------------------

def _notebook(path: Path, cells: list[str]) -> Path:
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# a notebook")] + [nbformat.v4.new_code_cell(c) for c in cells]
    nbformat.write(nb, str(path))
    return path


@pytest.fixture(scope="module")
def kernel_available():
    pytest.importorskip("jupyter_client")
    pytest.importorskip("ipykernel")


def test_notebook_clean_exits_0(tmp_path, kernel_available):
    nb = _notebook(tmp_path / "clean.ipynb", ["import torch\nx = torch.ones(2, requires_grad=True)",
                                              "(x * 2).sum().backward()\nprint(x.grad)"])
    result = run("diagnose", str(nb), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"error": None, "diagnoses": []}


def test_notebook_double_backward_exits_1_with_the_explanation(tmp_path, kernel_available):
    nb = _notebook(tmp_path / "train.ipynb", ["import torch\nx = torch.ones(2, requires_grad=True)",
                                              "loss = (x.exp() * 2).sum()\nloss.backward()",
                                              "loss.backward()", "print('never runs')"])
    result = run("diagnose", str(nb))
    assert result.returncode == 1, result.stderr
    out = result.stdout
    assert "cell 3" in out and "Trying to backward through the graph a second time" in out
    assert HEADING in out and "[double_backward]" in out and "never runs" not in out
    result = run("diagnose", str(nb), "--json")
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["error"].startswith("RuntimeError: Trying to backward")
    top = data["diagnoses"][0]
    assert top["cause"] == "double_backward"
    assert top["where"]["cell_index"] in (2, 3)  # the cell holding the root (by id), else the failing one
    ids = {c["id"]: i for i, c in enumerate(json.loads(nb.read_text())["cells"])}
    if top["where"].get("cell_id") in ids:
        assert top["where"]["cell_index"] == ids[top["where"]["cell_id"]]


def test_notebook_foreign_error_exits_1_with_no_diagnosis(tmp_path, kernel_available):
    nb = _notebook(tmp_path / "other.ipynb", ["import torch", "raise RuntimeError('checkpoint missing')",
                                              "print('never runs')"])
    result = run("diagnose", str(nb))
    assert result.returncode == 1, result.stderr
    assert "RuntimeError: checkpoint missing" in result.stdout and HEADING not in result.stdout
    assert "is not an autograd error" in result.stdout
    result = run("diagnose", str(nb), "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout) == {"error": "RuntimeError: checkpoint missing", "diagnoses": []}


def test_notebook_bad_input_exits_2(tmp_path):
    invalid = tmp_path / "invalid.ipynb"
    invalid.write_text("{not json")
    not_nb = tmp_path / "list.ipynb"
    not_nb.write_text("[1, 2]")
    folder = tmp_path / "folder.ipynb"
    folder.mkdir()
    for path in (invalid, not_nb, folder, tmp_path / "missing.ipynb"):
        for extra in (["--json"], []):
            result = run("diagnose", str(path), *extra)
            assert result.returncode == 2, (path, result)
            assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr
