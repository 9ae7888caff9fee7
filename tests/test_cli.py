"""`nb-autograd diagnose` as a user runs it: a separate process, real files."""
from __future__ import annotations

import json
import subprocess
import sys

from nb_autograd.rules.second_backward import double_backward

CLI = [sys.executable, "-m", "nb_autograd.cli"]


def run(*args, cwd=None):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_json_has_exactly_the_documented_shape(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(double_backward.BAD[0].code)
    result = run("diagnose", str(script), "--json")
    assert result.returncode == 0, result.stderr
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


def test_clean_file_gives_no_diagnoses(tmp_path):
    script = tmp_path / "clean.py"
    script.write_text(double_backward.GOOD[0].code)
    data = json.loads(run("diagnose", str(script), "--json").stdout)
    assert data == {"error": None, "diagnoses": []}


def test_text_output_in_chinese(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(double_backward.BAD[0].code)
    result = run("diagnose", str(script), "--lang", "zh")
    assert result.returncode == 0
    assert "对同一个计算图调用了两次 backward()" in result.stdout


def test_bad_input_is_one_line_on_stderr_and_exit_2(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("for i in range(3)\n    pass\n")
    binary = tmp_path / "binary.py"
    binary.write_bytes(b"\xff\xfe\x00bad")
    for path in (tmp_path / "missing.py", tmp_path, broken, binary):
        result = run("diagnose", str(path), "--json")
        assert result.returncode == 2, (path, result)
        assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_script_that_raises_something_else_exits_0_with_no_diagnosis(tmp_path):
    script = tmp_path / "other.py"
    script.write_text("import torch\nraise KeyError('x')\n")
    result = run("diagnose", str(script), "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout) == {"error": "KeyError: 'x'", "diagnoses": []}
