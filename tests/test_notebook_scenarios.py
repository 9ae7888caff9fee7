"""The whole notebook, in real kernels: cells sent with their cell ids (`c<index>`), the cause
found in whichever cell (or user file) holds it, the fix put in that place and run again."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import pytest

from nb_autograd.kernel import Kernel

SETUP = """\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 4), torch.randn(8, 1)
"""
REPORT = "import json as _j, nb_autograd as _n; _r = _n.last_report(); print('@@' + _j.dumps(_r.to_dict() if _r else None))"


@dataclass(frozen=True)
class Scenario:
    cells: tuple[str, ...]
    order: tuple[int, ...]
    cause: str | None            # None: a correct notebook, nothing to say
    root: tuple[str, int] = ("", 0)  # (cell id or file name, line)
    files: dict = field(default_factory=dict, hash=False)


SCENARIOS = {
    "rerun_backward_cell": Scenario(
        (SETUP, "loss = F.mse_loss(model(x), y)", "opt.zero_grad(); loss.backward(); opt.step()"),
        (0, 1, 2, 2), "double_backward", ("c1", 1)),
    "features_from_earlier_cell": Scenario(
        (SETUP + "extractor = torch.nn.Linear(4, 4)\nhead = torch.nn.Linear(4, 1)\n"
         "opt = torch.optim.SGD([*extractor.parameters(), *head.parameters()], lr=0.1)",
         "feats = torch.relu(extractor(x))",
         "for step in range(3):\n    opt.zero_grad()\n    loss = F.mse_loss(head(feats), y)\n    loss.backward()\n    opt.step()"),
        (0, 1, 2), "computed_before_loop", ("c1", 1)),
    "features_from_earlier_cell_loss_inline": Scenario(
        (SETUP + "extractor = torch.nn.Linear(4, 8)", "feats = torch.relu(extractor(x))",
         "head = torch.nn.Linear(8, 1)\nopt = torch.optim.SGD(head.parameters(), lr=0.1)\nfor step in range(3):\n"
         "    opt.zero_grad()\n    F.mse_loss(head(feats), y).backward()\n    opt.step()"),
        (0, 1, 2), "computed_before_loop", ("c1", 1)),
    "function_defined_earlier": Scenario(
        (SETUP, "def train(model):\n    total = 0\n    for step in range(3):\n        loss = F.mse_loss(model(x), y)\n"
                "        total += loss\n        opt.zero_grad()\n        total.backward()\n        opt.step()",
         "train(model)"),
        (0, 1, 2), "accumulated_loss_backward_in_loop", ("c1", 5)),
    "training_in_imported_module": Scenario(
        (SETUP, "from trainlib import train\ntrain(model, opt, x, y)"), (0, 1),
        "accumulated_loss_backward_in_loop", ("trainlib.py", 7),
        files={"trainlib.py": "import torch.nn.functional as F\n\n\ndef train(model, opt, x, y):\n    total = 0\n"
                              "    for step in range(3):\n        total = total + F.mse_loss(model(x), y)\n"
                              "        opt.zero_grad()\n        total.backward()\n        opt.step()\n"}),
    "recurrence_in_imported_module": Scenario(  # the loop's names are not in the failing cell's text
        (SETUP, "from trainlib import train\ntrain(model, opt, x, y)"), (0, 1),
        "tensor_reused_across_iterations", ("trainlib.py", 7),
        files={"trainlib.py": "import torch.nn.functional as F\n\ndef train(model, opt, x, y):\n    h = None\n"
                              "    for step in range(3):\n        out = model(x) if h is None else model(x) + h\n"
                              "        h = out\n        loss = F.mse_loss(out, y)\n        opt.zero_grad()\n"
                              "        loss.backward()\n        opt.step()\n"}),
    "rnn_state_across_cells": Scenario(
        (SETUP + "rnn = torch.nn.RNNCell(4, 4)\nopt = torch.optim.SGD(rnn.parameters(), lr=0.1)",
         "h = torch.zeros(8, 4)",
         "for step in range(3):\n    h = rnn(x, h)\n    loss = h.pow(2).mean()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()"),
        (0, 1, 2), "recurrent_state_not_detached", ("c2", 2)),
    "out_of_order": Scenario(
        (SETUP, "loss = F.mse_loss(model(x), y)", "loss.backward()", "print('done')"),
        (0, 1, 2, 3, 2), "double_backward", ("c1", 1)),
    "update_cell_rerun_after_reinitialising": Scenario(  # the d2l scratch loop: `l.sum().backward()` makes a new root each run
        (SETUP, "w = torch.zeros(4, 1, requires_grad=True)", "l = (x @ w - y) ** 2",
         "l.sum().backward()\nwith torch.no_grad():\n    w -= 0.1 * w.grad\n    w.grad.zero_()"),
        (0, 1, 2, 3, 1, 3), "double_backward", ("c2", 1)),
    "running_total_grown_in_another_cell": Scenario(
        (SETUP, "total = 0",
         "for step in range(3):\n    total = total + F.mse_loss(model(x), y)\n    opt.zero_grad()\n    total.backward()\n    opt.step()"),
        (0, 1, 2), "accumulated_loss_backward_in_loop", ("c2", 2)),
    "list_of_activations_across_cells": Scenario(
        (SETUP, "outputs = []",
         "for step in range(3):\n    outputs.append(model(x))\n    loss = torch.cat(outputs).pow(2).mean()\n"
         "    opt.zero_grad()\n    loss.backward()\n    opt.step()"),
        (0, 1, 2), "tensor_reused_across_iterations", ("c2", 2)),
    "gan_steps_split_over_cells": Scenario(
        (SETUP + "G = torch.nn.Linear(2, 4)\nD = torch.nn.Linear(4, 1)\n"
         "opt_g = torch.optim.SGD(G.parameters(), lr=0.1)\nopt_d = torch.optim.SGD(D.parameters(), lr=0.1)",
         "fake = G(torch.randn(8, 2))",
         "opt_d.zero_grad()\nd_loss = D(fake).mean() - D(x).mean()\nd_loss.backward()\nopt_d.step()",
         "opt_g.zero_grad()\ng_loss = -D(fake).mean()\ng_loss.backward()\nopt_g.step()"),
        (0, 1, 2, 3), "shared_subgraph_multiple_backward", ("c2", 2)),
    "rerun_under_gradwatch": Scenario(
        (SETUP, "loss = F.mse_loss(model(x), y)", "%%gradwatch\nopt.zero_grad()\nloss.backward()\nopt.step()"),
        (0, 1, 2, 2), "double_backward", ("c1", 1)),
    "no_grad_set_up_in_another_cell": Scenario(
        (SETUP, "with torch.no_grad():\n    pred = model(x)", "loss = F.mse_loss(pred, y)\nloss.backward()"),
        (0, 1, 2), "no_grad_fn", ("c1", 2)),
    "inplace_set_up_in_another_cell": Scenario(
        (SETUP + "class Block(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.fc = torch.nn.Linear(4, 4)\n        self.act = torch.nn.ReLU(inplace=True)\n\n"
         "    def forward(self, x):\n        out = self.act(self.fc(x))\n        out += x\n        return out",
         "net = torch.nn.Sequential(Block(), torch.nn.Linear(4, 1))\nopt = torch.optim.SGD(net.parameters(), lr=0.1)",
         "opt.zero_grad()\nloss = F.mse_loss(net(x), y)\nloss.backward()\nopt.step()"),
        (0, 1, 2), "inplace_modified_saved_tensor", ("c0", 15)),
    "optimizer_step_in_its_own_cell": Scenario(
        (SETUP + "net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))\n"
         "opt = torch.optim.SGD(net.parameters(), lr=0.1)",
         "out = net(x)\nloss_fit = F.mse_loss(out, y)\nloss_small = out.abs().mean()",
         "opt.zero_grad()\nloss_fit.backward(retain_graph=True)", "opt.step()", "loss_small.backward()\nopt.step()"),
        (0, 1, 2, 3, 4), "inplace_modified_saved_tensor", ("c3", 1)),
    "step_cell_run_before_the_second_backward_cell": Scenario(
        (SETUP + "net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))\n"
         "opt = torch.optim.SGD(net.parameters(), lr=0.1)",
         "opt.zero_grad()\nout = net(x)\nloss_fit = F.mse_loss(out, y)\nloss_small = out.abs().mean()",
         "loss_fit.backward(retain_graph=True)", "loss_small.backward()", "opt.step()\nprint(loss_fit.item())"),
        (0, 1, 2, 4, 3), "inplace_modified_saved_tensor", ("c4", 1)),
    "frozen_in_another_cell": Scenario(
        (SETUP, "for p in model.parameters():\n    p.requires_grad = False", "loss = F.mse_loss(model(x), y)\nloss.backward()"),
        (0, 1, 2), "no_grad_fn", ("c1", 2)),
    "rerun_cell_that_evaluates_under_no_grad": Scenario(  # sotte/pytorch_tutorial's lin_reg shape
        (SETUP + "device = 'cpu'",
         "model = torch.nn.Linear(4, 1).to(device)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
         "x, y = x.to(device), y.to(device)\npred = model(x)\nloss = F.mse_loss(pred, y)",
         "model.train()\nopt.zero_grad()\nloss.backward()\nopt.step()\nmodel.eval()\nwith torch.no_grad():\n"
         "    pred = model(x)\nprint(loss.item())"),
        (0, 1, 2, 2), "double_backward", ("c1", 5)),
    "rerun_cell_whose_loss_casts_the_output_onto_itself": Scenario(
        (SETUP, "out = model(x)\nout = out.double()\nloss = F.mse_loss(out, y.double())",
         "opt.zero_grad()\nloss.backward()\nopt.step()"),
        (0, 1, 2, 2), "double_backward", ("c1", 3)),
    "activations_a_hook_stores_converted_in_a_later_cell": Scenario(
        (SETUP + "import numpy as np\nacts = []\nhook = model.register_forward_hook(lambda m, i, o: acts.append(o))",
         "for step in range(3):\n    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n    loss.backward()\n    opt.step()",
         "stacked = torch.cat(acts)\nprint(np.mean(stacked.numpy()))"),
        (0, 1, 2), "numpy_on_grad_tensor", ("c0", 9)),
    "replay_buffer_class_in_an_earlier_cell": Scenario(  # the transitions sit in a plain object's list
        (SETUP + "import random\nencoder, qnet = torch.nn.Linear(4, 3), torch.nn.Linear(3, 2)\n"
         "opt = torch.optim.Adam([*encoder.parameters(), *qnet.parameters()], lr=1e-3)",
         "class Buffer:\n    def __init__(self):\n        self.data = []\n\n    def push(self, s, a):\n"
         "        self.data.append((s, a))\n\n    def sample(self, n):\n        s, a = zip(*random.sample(self.data, n))\n"
         "        return torch.stack(s), torch.tensor(a)",
         "buf = Buffer()\nfor t in range(4):\n    s = encoder(x[t])\n    buf.push(s, int(qnet(s).argmax()))\n"
         "    if len(buf.data) >= 2:\n        bs, ba = buf.sample(2)\n        loss = qnet(bs).gather(1, ba[:, None]).mean()\n"
         "        opt.zero_grad()\n        loss.backward()\n        opt.step()"),
        (0, 1, 2), "tensor_reused_across_iterations", ("c2", 4)),
    "optimizer_of_a_head_frozen_in_another_cell": Scenario(  # the features are meant to be computed under no_grad
        (SETUP + "encoder, head = torch.nn.Linear(4, 4), torch.nn.Linear(4, 1)\nwith torch.no_grad():\n    feats = encoder(x)",
         "head.requires_grad_(False)",
         "opt = torch.optim.SGD(head.parameters(), lr=0.1)\nfor step in range(2):\n    loss = F.mse_loss(head(feats), y)\n"
         "    opt.zero_grad()\n    loss.backward()\n    opt.step()"),
        (0, 1, 2), "no_grad_fn", ("c1", 1)),
    "hook_list_of_an_earlier_cell_read_whole_by_a_regulariser": Scenario(  # emptied after each update, not detached
        (SETUP + "feats = []\nmodel.register_forward_hook(lambda m, i, o: feats.append(o))",
         "for step in range(3):\n    out = model(x)\n    reg = torch.stack([f.abs().mean() for f in feats]).sum()\n"
         "    loss = F.mse_loss(out, y) + 0.01 * reg\n    opt.zero_grad(); loss.backward(); opt.step()"),
        (0, 1), "tensor_reused_across_iterations", ("c0", 8)),
    "encoder_state_of_an_earlier_cell_with_a_parameter_list": Scenario(  # the encoder is trained: its forward moves
        (SETUP + "enc, dec = torch.nn.GRU(4, 4, batch_first=True), torch.nn.GRUCell(4, 4)\n"
         "params = [*enc.parameters(), *dec.parameters()]\nopt = torch.optim.Adam(params, 1e-3)",
         "_, h_enc = enc(x[:, None])\nh0 = h_enc[0]",
         "for epoch in range(2):\n    h = dec(x, h0)\n    loss = F.mse_loss(h, x)\n    opt.zero_grad()\n"
         "    loss.backward()\n    opt.step()"),
        (0, 1, 2), "computed_before_loop", ("c1", 2)),
    "correct_rerun_recomputes_loss": Scenario(
        (SETUP, "opt.zero_grad()\nloss = F.mse_loss(model(x), y)\nloss.backward()\nopt.step()"),
        (0, 1, 1, 1), None),
    "correct_detached_state": Scenario(
        (SETUP + "rnn = torch.nn.RNNCell(4, 4)\nopt = torch.optim.SGD(rnn.parameters(), lr=0.1)", "h = torch.zeros(8, 4)",
         "for step in range(3):\n    h = rnn(x, h.detach())\n    loss = h.pow(2).mean()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()"),
        (0, 1, 2, 2), None),
}


def run(tmp_path, scenario: Scenario, cells=None, load=True) -> tuple[dict | None, tuple | None]:
    for name, text in scenario.files.items():
        (tmp_path / name).write_text(text)
    cells = cells or scenario.cells
    with Kernel(tmp_path) as kernel:
        if load:
            kernel.run("%load_ext nb_autograd")
        error = None
        for i in scenario.order:
            result = kernel.run(cells[i], cell_id=f"c{i}")
            if result.error:
                error = result.error
                break
        if not load:
            return None, error
        out = kernel.run(REPORT).stdout
    line = next(l for l in out.splitlines() if l.startswith("@@"))
    return json.loads(line[2:]), error


KNOWN_MISSES: dict[str, str] = {}  # scenario -> why it is still missed (strict xfail)


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN_MISSES[n], strict=True))
                                  if n in KNOWN_MISSES else n for n in SCENARIOS])
def test_scenario(name, tmp_path):
    scenario = SCENARIOS[name]
    report, error = run(tmp_path, scenario)
    if scenario.cause is None:
        assert error is None and (report is None or not report["diagnoses"]), report
        return
    assert error is not None
    top = report["diagnoses"][0]
    assert top["cause"] == scenario.cause, top
    where, (unit, line) = top["where"], scenario.root
    assert (where["cell_id"] == unit or (where["file"] or "").endswith(unit)) and abs(where["line"] - line) <= 1, where
    label = f"{unit}, line" if unit.endswith(".py") else "line"
    assert label in top["explanation"]
    fix = top["fixes"][0]
    assert "retain_graph" not in fix["patched_source"]
    _, error = run(tmp_path, patched(scenario, fix), load=False)
    assert error is None, f"the fix raised {error}"
    if name == "rerun_cell_that_evaluates_under_no_grad":  # the loss is rebuilt; the model and the data are not
        assert fix["patched_source"].startswith("pred = model(x)\nloss = F.mse_loss(pred, y)\nmodel.train()"), fix
    if name == "rerun_cell_whose_loss_casts_the_output_onto_itself":  # the cast is part of building the output
        assert fix["patched_source"].startswith("out = model(x)\nout = out.double()\nloss ="), fix


def patched(scenario: Scenario, fix: dict) -> Scenario:
    """The scenario with the fix put in its cell or file, and in the others it changes ("also")."""
    cells, files = list(scenario.cells), dict(scenario.files)
    for edit in (fix, *fix.get("also", ())):
        if edit["where"]["file"]:
            files[edit["where"]["file"].rsplit("/", 1)[-1]] = edit["patched_source"]
        else:
            cells[int(edit["where"]["cell_id"][1:])] = edit["patched_source"]
    return Scenario(tuple(cells), scenario.order, None, files=files)


def test_a_step_cell_run_too_early_is_moved_by_one_fix_that_changes_both_cells(tmp_path):
    """The step cell ran between the two backward cells: the fix takes the step out of that cell
    and puts it after the second backward, in the other cell; either half alone still fails."""
    scenario = SCENARIOS["step_cell_run_before_the_second_backward_cell"]
    report, _ = run(tmp_path, scenario)
    fix = report["diagnoses"][0]["fixes"][0]
    assert fix["kind"] == "move_step_after_backward"
    assert fix["where"]["cell_id"] == "c3" and "opt.step()" in fix["patched_source"]
    assert [e["where"]["cell_id"] for e in fix["also"]] == ["c4"]
    assert "opt.step()" not in fix["also"][0]["patched_source"]
    half = dict(fix, also=[])
    _, error = run(tmp_path, patched(scenario, half), load=False)
    assert error is not None  # the move needs both cells


def test_gradients_of_each_output_of_an_earlier_cells_forward_keep_the_graph(tmp_path):
    """A Jacobian column by column over a forward run in the cell above: every pass is meant, so
    here (and only here) the fix keeps the graph, on the call in the loop, and the cell runs."""
    scenario = Scenario((SETUP + "net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))\n"
                                 "xs = torch.randn(5, 4, requires_grad=True)",
                         "out = net(xs)",
                         "cols = []\nfor k in range(out.shape[1]):\n    (g,) = torch.autograd.grad(out[:, k].sum(), xs)\n"
                         "    cols.append(g)"), (0, 1, 2), "double_backward", ("c2", 3))
    report, error = run(tmp_path, scenario)
    assert error is not None
    top = report["diagnoses"][0]
    assert (top["cause"], top["where"]["cell_id"], top["where"]["line"]) == ("double_backward", "c2", 3), top
    fix = top["fixes"][0]
    assert fix["where"]["cell_id"] == "c2" and "grad(out[:, k].sum(), xs, retain_graph=True)" in fix["patched_source"]
    _, error = run(tmp_path, patched(scenario, fix), load=False)
    assert error is None, f"the fix raised {error}"


def test_gradwatch_names_the_line_inside_an_imported_helper(tmp_path):
    """With `--ops` the watcher's provenance goes down to the innermost user line: the helper's
    file and line, not only the watched cell's line that called it."""
    (tmp_path / "losslib.py").write_text("import torch.nn.functional as F\n\n\ndef make_loss(model, x, y):\n"
                                         "    out = model(x)\n    return F.mse_loss(out, y)\n")
    with Kernel(tmp_path) as kernel:
        kernel.run("%load_ext nb_autograd")
        kernel.run(SETUP + "model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))",
                   cell_id="c0")
        result = kernel.run("%%gradwatch --ops\nfrom losslib import make_loss\nloss = make_loss(model, x, y)\n"
                            "for step in range(2):\n    loss.backward()", cell_id="c1")
        assert result.error is not None
        trace = kernel.run("import nb_autograd as _n; print(_n.last_report().trace)").stdout
    assert "created at line 2 of In [" in trace, trace
    assert "made at losslib.py, line 5" in trace, trace


def test_gradwatch_on_names_the_line_inside_a_function_of_an_earlier_cell(tmp_path):
    """`%gradwatch on` compiles every cell with statement marks, so a helper defined in an earlier
    cell reports its own lines: the trace names that cell's line inside the failing one."""
    with Kernel(tmp_path) as kernel:
        kernel.run("%load_ext nb_autograd")
        kernel.run("%gradwatch on")
        kernel.run(SETUP + "model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))",
                   cell_id="c0")
        kernel.run("import torch.nn.functional as F\ndef make_loss(model, x, y):\n    out = model(x)\n"
                   "    return F.mse_loss(out, y)", cell_id="c1")
        result = kernel.run("loss = make_loss(model, x, y)\nfor step in range(2):\n    loss.backward()", cell_id="c2")
        assert result.error is not None
        trace = kernel.run("import nb_autograd as _n; print(_n.last_report().trace)").stdout
    failing = int(re.search(r"created at line 1 of In \[(\d+)\]", trace).group(1))
    assert f"made at In [{failing - 1}], line 3" in trace, trace  # the def cell, run just before


def test_a_rerun_cell_is_named_by_the_run_that_freed_the_graph_and_the_run_that_failed(tmp_path):
    """A re-run cell's runs are one piece of the joined program; the trace still names each
    backward call by its own run (In [n] freed it, In [n+1] ran into it)."""
    with Kernel(tmp_path) as kernel:
        kernel.run("%load_ext nb_autograd")
        kernel.run(SETUP, cell_id="c0")
        kernel.run("loss = F.mse_loss(model(x), y)", cell_id="c1")
        first = kernel.run("opt.zero_grad(); loss.backward(); opt.step()", cell_id="c2")
        second = kernel.run("opt.zero_grad(); loss.backward(); opt.step()", cell_id="c2")
        assert first.error is None and second.error is not None
        trace = kernel.run("import nb_autograd as _n; print(_n.last_report().trace)").stdout
        explanation = kernel.run("print(_n.last_report().diagnoses[0].explanation)").stdout
    for said in (trace, explanation):
        runs = {int(n) for n in re.findall(r"line 1 of In \[(\d+)\]", said)}
        assert len(runs) == 2 and max(runs) - min(runs) == 1, said
