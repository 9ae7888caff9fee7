"""Holders are found where real code keeps activations: in the variables a forward hook
closes over (the list is nowhere else in the frames), and in a module's reassigned buffer."""
from __future__ import annotations

import nb_autograd
from nb_autograd.evidence import build

HOOKED = """\
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def watch(module):
    feats = []

    def hook(mod, inputs, output):
        feats.append(output)

    module.register_forward_hook(hook)
    return lambda: torch.stack([f.mean() for f in feats]).sum()


penalty = watch(model[1])
for step in range(3):
    loss = model(torch.randn(5, 4)).pow(2).mean() + 0.1 * penalty()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

BUFFER = """\
import torch
torch.manual_seed(0)


class Scaled(torch.nn.Linear):
    def __init__(self):
        super().__init__(3, 3)
        self.register_buffer("history", torch.zeros(4))

    def forward(self, x):
        self.history = torch.cat([self.history[1:], self.weight.abs().max().reshape(1)])
        return super().forward(x) / self.history.max()


model = Scaled()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(2, 3)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def _holders(source):
    report = nb_autograd.diagnose(source)
    assert report.error and "second time" in report.error
    return report, {h.path: h for h in build(report.capture).holders}


def test_a_list_only_a_hook_closes_over_is_a_stale_holder_and_the_store_is_named():
    report, holders = _holders(HOOKED)
    assert holders["feats[0]"].stale
    assert (report.top.cause, report.top.line) == ("tensor_reused_across_iterations", 11)


def test_a_reassigned_buffer_is_a_holder():
    _, holders = _holders(BUFFER)
    assert holders["model.history"].reaches_stale


TRANSITIONS = """\
import torch
torch.manual_seed(0)


class Policy(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.data = []
        self.fc = torch.nn.Linear(4, 2)

    def put_data(self, item):
        self.data.append(item)

    def train_net(self):
        for r, prob in self.data[::-1]:
            (-torch.log(prob) * r).backward()


pi = Policy()
for episode in range(2):
    for t in range(3):
        prob = torch.softmax(pi.fc(torch.randn(4)), 0)
        pi.put_data((1.0, prob[0]))
    pi.train_net()
"""


def test_a_list_of_transitions_a_module_keeps_is_a_stale_holder():
    # the REINFORCE buffer never emptied (minimalRL#1): the second episode reaches the first's graphs
    report, holders = _holders(TRANSITIONS)
    assert any(path.startswith("pi.data[") and h.stale for path, h in holders.items()), list(holders)
    assert report.top.cause == "tensor_reused_across_iterations"


STATES = """\
import collections
import torch
Pair = collections.namedtuple("Pair", "h c")
w = torch.nn.Parameter(torch.ones(2))
pair = Pair(w * 2, w * 3)
layers = {"enc": (w * 4, w * 5)}
pair.h.sum().backward()
(pair.c.sum() + layers["enc"][0].sum() + pair.h.sum()).backward()
"""


def test_a_holder_says_how_it_holds_its_tensor():
    _, holders = _holders(STATES)
    assert holders["pair[0]"].container == "namedtuple"
    assert holders["layers['enc'][0]"].container == "dict>tuple"
