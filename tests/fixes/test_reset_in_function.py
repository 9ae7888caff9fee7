"""reset_in_function: a total a function declares global is started afresh at each call, as a
local; the outer initialisation stays, and the fix is made once."""
from nb_autograd.fixes.reset_in_function import reset_in_function

from .helpers import run

SRC = """\
import torch
model = torch.nn.Linear(3, 1)
loss = 0

def train(x):
    global loss, calls
    for row in x:
        loss += model(row).pow(2).sum()
    loss.backward()

calls = 0
for _ in range(2):
    train(torch.randn(4, 3))
"""


def test_the_total_becomes_a_local_started_at_each_call_and_runs():
    out = reset_in_function(SRC, name="loss", init_line=3, function_line=5)
    assert "    global calls\n    loss = 0\n    for row in x:" in out and out.startswith("import torch\nmodel")
    run(out)
    assert reset_in_function(out, name="loss", init_line=3, function_line=5) is None
