"""The watcher: which line and iteration made each node, the backward timeline, and nothing
left behind (modes, hooks, patches, listeners, references) once a cell is over."""
from __future__ import annotations

import itertools
import sys

import pytest
import torch

import nb_autograd
from nb_autograd.capture.backwards import RECORDER
from nb_autograd.capture.marks import compile_marked
from nb_autograd.capture.run import register_source
from nb_autograd.capture.watch import Watcher
from nb_autograd.rules.second_backward import tensor_reused_across_iterations
from tests.conftest import examples

_names = (f"<watch-test-{i}>" for i in itertools.count())


@pytest.fixture(params=["marks", "ops"], autouse=True)
def recorder(request, monkeypatch):
    """Every test runs with both recorders: statement marks (code we compile) and the per-op mode."""
    monkeypatch.setattr(sys.modules[__name__], "RECORDER_KIND", request.param)
    return request.param


RECORDER_KIND = "marks"


def watched(source: str, kind: str | None = None, names: dict | None = None):
    """Run `source` under a Watcher; (watcher, namespace, backward calls)."""
    filename = next(_names)
    ops = (kind or RECORDER_KIND) == "ops"
    code = compile(source, filename, "exec") if ops else compile_marked(source, filename)
    register_source(filename, source)
    namespace: dict = {"__name__": "__main__", **(names or {})}
    watcher = Watcher(filename, top_code=code)
    assert watcher.ops is ops
    RECORDER.acquire()
    RECORDER.reset()
    try:
        watcher.start()
        try:
            exec(code, namespace)
        finally:
            watcher.stop()
        calls = RECORDER.calls(filename)
    finally:
        RECORDER.reset()
        RECORDER.release()
    return watcher, namespace, calls


PROVENANCE = """\
import torch
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 3)
    def forward(self, x):
        h = self.fc(x)
        return h.relu()
def helper(t):
    return t * 2
net = Net()
seen = []
for epoch in range(2):
    for step in range(3):
        y = helper(net(torch.randn(2, 3)))
        s = y.sum()
        relu = y.grad_fn.next_functions[0][0]
        seen.append((y.grad_fn._sequence_nr(), relu._sequence_nr(),
                     relu.next_functions[0][0]._sequence_nr(), s.grad_fn._sequence_nr()))
"""


def test_forward_in_the_cell_helper_and_nested_loops_get_their_line_and_iteration():
    watcher, ns, _ = watched(PROVENANCE)
    assert len(ns["seen"]) == 6
    for k, (mul, relu, addmm, total) in enumerate(ns["seen"]):
        assert watcher.origin(mul) == (10, k)      # helper() body
        assert watcher.origin(relu) == (8, k)      # Net.forward, second line
        assert watcher.origin(addmm) == (7, k)     # inside nn.Linear, called from forward
        assert watcher.origin(total) == (16, k)    # top-level op in the inner loop


def test_several_ops_on_one_line_share_one_iteration():
    watcher, ns, _ = watched("""\
import torch
w = torch.ones(3, requires_grad=True)
ids = []
for i in range(3):
    y = (w * 2).exp().sum()
    ids.append((y.grad_fn._sequence_nr(), y.grad_fn.next_functions[0][0]._sequence_nr()))
""")
    assert [tuple(watcher.origin(n) for n in pair) for pair in ns["ids"]] == [((5, i), (5, i)) for i in range(3)]


def test_ids_outside_every_recorded_range_have_no_origin(recorder):
    before = (torch.ones(2, requires_grad=True) * 2).grad_fn._sequence_nr()
    watcher, ns, _ = watched("""\
import torch
w = torch.ones(2, requires_grad=True)
a = w * 2
with torch._C.DisableTorchFunction():
    gap = w * 3
b = w * 4
""")
    assert watcher.origin(ns["a"].grad_fn._sequence_nr()) == (3, 0)
    assert watcher.origin(ns["b"].grad_fn._sequence_nr()) == (6, 0)
    # the per-op mode sees no op with torch functions disabled; marks see the statement running
    assert watcher.origin(ns["gap"].grad_fn._sequence_nr()) == ((None, None) if recorder == "ops" else (5, 0))
    assert watcher.origin(before) == (None, None)
    assert watcher.origin(-7) == (None, None)
    assert watcher.origin(2**62) == (None, None)


def test_temp_append_example_records_h_at_line_11_iteration_0():
    report = nb_autograd.diagnose(tensor_reused_across_iterations.BAD[0].code)
    stale = {(n.line, n.iteration) for n in report.graph.nodes if n.id in set(report.graph.stale)}
    assert stale == {(11, 0)}


@pytest.mark.parametrize("rule,example", examples("BAD", "second_backward"))
def test_family_a_examples_have_complete_provenance(rule, example):
    report = nb_autograd.diagnose(example.code)
    graph, lines = report.graph, example.code.splitlines()
    assert graph is not None and graph.stale
    for node in graph.nodes:
        if node.id >= 0:  # every node but the leaves was made by a recorded cell line
            assert node.line is not None and lines[node.line - 1].strip(), node
    # the stale part is what an earlier backward already ran through: each stale node existed
    # before the call that freed it began
    calls = {c.index: c for c in report.capture.backwards}
    stale = [n for n in graph.nodes if n.id in set(graph.stale)]
    assert stale and all(n.freed_by is not None and n.id < calls[n.freed_by].next_id for n in stale)


def test_backward_timeline_in_order_with_sizes():
    watcher, _, calls = watched("""\
import torch
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = model(torch.randn(8, 4)).pow(2).mean()
    loss.backward()
    opt.step()
""")
    sites = watcher.timeline.backwards()
    assert list(sites) == [(7,)] and watcher.timeline.zero_grads == 3
    backwards = sites[(7,)]
    assert [(e.kind, e.line) for e in backwards] == [("backward", 7)] * 3
    assert len({e.nodes for e in backwards}) == 1 and backwards[0].nodes > 3
    assert all(e.old_nodes == 0 and e.live_bytes > 0 for e in backwards)
    assert [(c.line, c.iteration, c.kind) for c in calls] == [(7, i, "backward") for i in range(3)]
    assert watcher.silent_findings(calls) == ()


def test_retained_graph_grows_on_the_timeline():
    watcher, _, calls = watched("""\
import torch
w = torch.ones(4, requires_grad=True)
total = torch.zeros(())
for step in range(4):
    total = total + (w * step).exp().sum()
    total.backward(retain_graph=True)
""")
    (backwards,) = watcher.timeline.backwards().values()
    assert [c.retain_graph for c in calls] == [True] * 4
    nodes, olds, sizes = ([getattr(e, k) for e in backwards] for k in ("nodes", "old_nodes", "live_bytes"))
    assert nodes == sorted(set(nodes)) and olds == sorted(set(olds)) and sizes == sorted(set(sizes))
    assert olds[0] == 0 < olds[1]


def test_after_stop_the_watcher_holds_only_plain_values():
    import gc
    import types

    watcher, ns, calls = watched(PROVENANCE.replace("seen = []", "seen = []\nopt = torch.optim.SGD(net.parameters(), lr=0.1)")
                                 + "        s.backward()\n        opt.step()\n")
    watcher.silent_findings(calls, ns)
    seen, todo, bad = set(), [watcher], []
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, types.FunctionType, types.CodeType)):
            continue
        seen.add(id(obj))
        if isinstance(obj, (torch.Tensor, types.FrameType, BaseException)) or type(obj).__module__ == "torch.autograd.graph" \
                or "Backward" in type(obj).__name__:
            bad.append(type(obj).__name__)
        todo.extend(gc.get_referents(obj))
    assert bad == []
    assert sum(len(events) for events in watcher.timeline.backwards().values()) == 6


def test_a_node_made_inside_a_user_module_names_that_file_and_line(tmp_path, monkeypatch, recorder):
    """The per-op mode names the module's line; marks (no per-op cost) know only the cell's."""
    sys.modules.pop("lossmod", None)
    (tmp_path / "lossmod.py").write_text("import torch\n\n\ndef make_loss(w, x):\n    h = torch.tanh(x @ w)\n"
                                         "    return h.pow(2).sum()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    watcher, namespace, _ = watched("import torch\nfrom lossmod import make_loss\nw = torch.randn(3, 3, requires_grad=True)\n"
                                    "loss = make_loss(w, torch.randn(2, 3))\nout = (w * 2).sum()\n")
    loss, out = namespace["loss"], namespace["out"]
    tanh = loss.grad_fn.next_functions[0][0].next_functions[0][0]
    assert type(tanh).__name__ == "TanhBackward0"
    assert watcher.origin(tanh._sequence_nr())[0] == 4  # the cell's line that called the helper
    module = str(tmp_path / "lossmod.py")
    if recorder == "ops":
        assert watcher.made_at(tanh._sequence_nr()) == (module, 5)
        assert watcher.made_at(loss.grad_fn._sequence_nr()) == (module, 6)
    else:
        assert watcher.made_at(tanh._sequence_nr()) is None
        assert watcher.origin(loss.grad_fn._sequence_nr())[0] == 4
    assert watcher.made_at(out.grad_fn._sequence_nr()) is None  # made on the cell's own line
    sys.modules.pop("lossmod", None)


def test_marks_name_the_line_inside_a_function_of_an_earlier_watched_unit(recorder):
    """A function compiled with marks (an earlier `%%gradwatch` cell, `%gradwatch on`) reports
    its statements to whichever watcher listens now: its line is the node's `made_at`."""
    earlier = "<earlier-unit>"
    source = "import torch\ndef make_loss(w, x):\n    h = torch.tanh(x @ w)\n    return h.pow(2).sum()\n"
    register_source(earlier, source)
    ns: dict = {}
    exec(compile_marked(source, earlier), ns)
    watcher, namespace, _ = watched("import torch\nw = torch.randn(3, 3, requires_grad=True)\n"
                                    "loss = make_loss(w, torch.randn(2, 3)) * 3\n", names={"make_loss": ns["make_loss"]})
    loss = namespace["loss"]
    mul = loss.grad_fn
    pow_ = mul.next_functions[0][0].next_functions[0][0]
    tanh = pow_.next_functions[0][0]
    assert watcher.origin(tanh._sequence_nr()) == (3, 0)
    assert watcher.made_at(tanh._sequence_nr()) == (earlier, 3)
    assert watcher.made_at(pow_._sequence_nr()) == (earlier, 4)
    assert watcher.made_at(mul._sequence_nr()) is None  # `* 3` ran after the call returned


def test_a_total_emptied_every_few_steps_is_seen_while_the_loop_runs():
    # at its end the cell holds an empty total; the graphs were kept between the log lines
    watcher, ns, calls = watched("""\
import torch
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
train_loss = 0
for step in range(1, 13):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    train_loss += loss
    loss.backward()
    opt.step()
    opt.zero_grad()
    if step % 4 == 0:
        print(train_loss.item() / 4)
        train_loss = 0
""")
    kept = [k for k in watcher.silent_findings(calls, ns) if getattr(k, "path", None) == "train_loss"]
    assert kept and kept[0].iterations >= 3 and 6 in kept[0].lines


def test_logs_a_module_keeps_until_the_epoch_ends_are_seen_while_the_loop_runs():
    watcher, ns, calls = watched("""\
import torch
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 1)
        self.step_outputs = []
    def training_step(self, x):
        out = self.lin(x)
        log = {"loss": out.pow(2).mean(), "n": len(x)}
        log["prediction"] = out
        self.step_outputs.append(log)
        return log
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(2):
    for _ in range(6):
        log = net.training_step(torch.randn(8, 4))
        opt.zero_grad()
        log["loss"].backward()
        opt.step()
    net.step_outputs.clear()
""")
    paths = [getattr(k, "path", None) for k in watcher.silent_findings(calls, ns)]
    assert "net.step_outputs" in paths, paths


GAN_STEPS = """\
import torch
G, D = torch.nn.Linear(4, 4), torch.nn.Linear(4, 1)
opt_g = torch.optim.SGD(G.parameters(), lr=0.1)
opt_d = torch.optim.SGD(D.parameters(), lr=0.1)
for step in range(3):
    fake = G(torch.randn(8, 4))
    opt_d.zero_grad({set_to_none})
    D(fake.detach()).mean().backward()
    opt_d.step()
    D(fake).mean().backward()
    opt_g.step()
"""


def test_another_optimizers_zero_grad_does_not_hide_gradients_summed_over_steps():
    """opt_d.zero_grad() sets D's gradients to None; G's are never cleared. Only a zeroing in
    place (set_to_none=False, which reaches whatever tensors it zeroes) counts for every optimizer."""
    from nb_autograd.capture.silent import GradsAccumulated

    watcher, _, _ = watched(GAN_STEPS.format(set_to_none=""))
    found = [o for o in watcher.timeline.findings() if isinstance(o, GradsAccumulated)]
    assert found and found[0].step_line == 11 and found[0].backward_line == 10, found
    watcher, _, _ = watched(GAN_STEPS.format(set_to_none="set_to_none=False"))
    assert not [o for o in watcher.timeline.findings() if isinstance(o, GradsAccumulated)]
