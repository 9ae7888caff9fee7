"""The same cell gets the same diagnosis in terminal IPython, a notebook kernel (nbclient)
and a plain `python` process through the CLI."""
from __future__ import annotations

import json
import re
import subprocess
import sys

from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

from nb_autograd.rules.second_backward import recurrent_state_not_detached as recurrent
from tests.conftest import run_cell

SOURCE = recurrent.BAD[0].code
FOUND = re.compile(r"\[([a-z_]+)\]\s+line (\d+) \|")


def _from_text(text: str) -> tuple[str, int]:
    cause, line = FOUND.search(" ".join(text.split())).groups()
    return cause, int(line)


def test_terminal_kernel_and_cli_agree(shell, tmp_path):
    _, out, _ = run_cell(shell, SOURCE)
    terminal = _from_text(out)

    nb = new_notebook(cells=[new_code_cell("%load_ext nb_autograd"),
                             new_code_cell(SOURCE, metadata={"tags": ["raises-exception"]})])
    NotebookClient(nb, timeout=240, kernel_name="python3").execute()
    outputs = nb.cells[1].outputs
    assert any(o.output_type == "error" and o.ename == "RuntimeError" for o in outputs)
    shown = "\n".join(o.get("data", {}).get("text/plain", "") for o in outputs if o.output_type == "display_data")
    kernel = _from_text(shown)

    script = tmp_path / "train.py"
    script.write_text(SOURCE)
    result = subprocess.run([sys.executable, "-m", "nb_autograd.cli", "diagnose", str(script), "--json"],
                            capture_output=True, text=True, timeout=120)
    top = json.loads(result.stdout)["diagnoses"][0]
    cli = (top["cause"], top["line"])

    assert terminal == kernel == cli == ("recurrent_state_not_detached", recurrent.BAD[0].line)
