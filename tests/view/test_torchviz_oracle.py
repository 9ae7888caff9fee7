"""torchviz as an oracle: for a live graph, our snapshot has the same autograd nodes and
edges as torchviz.make_dot draws (compared as labelled structure, not by ids)."""
from __future__ import annotations

import re
from collections import Counter

import pytest
import torch

from nb_autograd.capture.graph import snapshot

torchviz = pytest.importorskip("torchviz")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # torchviz uses distutils

_NODE = re.compile(r'^\t(\d+) \[label=(".*?"|\S+?)(?: fillcolor=(\w+))?\]$', re.S)
_EDGE = re.compile(r"^\t(\d+) -> (\d+)")


def torchviz_structure(output) -> tuple[dict, list]:
    """(node id -> label, [(parent, child)]) for backward nodes only; a leaf's
    AccumulateGrad is labelled with its variable's shape, as ours is."""
    labels, variables, edges = {}, {}, []
    for line in torchviz.make_dot(output).body:
        line = line.rstrip("\n")
        if m := _NODE.match(line):
            nid, label, colour = m.groups()
            if colour is None:
                labels[nid] = label.strip('"')
            elif colour == "lightblue":
                variables[nid] = tuple(int(x) for x in re.findall(r"\d+", label))
        elif m := _EDGE.match(line):
            edges.append(m.groups())
    fn_edges = []
    for child, parent in edges:  # torchviz draws input -> consumer
        if child in variables and parent in labels:
            labels[parent] = f"AccumulateGrad{variables[child]}"
        elif child in labels and parent in labels:
            fn_edges.append((parent, child))
    return labels, fn_edges


def ours(output) -> tuple[dict, list]:
    graph = snapshot([output.grad_fn])
    labels = {n.id: f"{n.op}{tuple(n.leaf_shape)}" if n.is_leaf else n.op for n in graph.nodes}
    return labels, list(graph.edges)


def canonical(labels: dict, edges: list, rounds: int = 5) -> tuple[Counter, Counter]:
    """Weisfeiler-Lehman colours of the nodes, and edges as (colour, colour) pairs."""
    children, parents = {n: [] for n in labels}, {n: [] for n in labels}
    for a, b in edges:
        children[a].append(b)
        parents[b].append(a)
    colour = dict(labels)
    for _ in range(rounds):
        colour = {n: hash((colour[n], tuple(sorted(colour[c] for c in children[n])),
                           tuple(sorted(colour[p] for p in parents[n])))) for n in labels}
    return Counter(colour.values()), Counter((colour[a], colour[b]) for a, b in edges)


class Residual(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.bn = torch.nn.Conv2d(3, 3, 3, padding=1), torch.nn.BatchNorm2d(3)

    def forward(self, x):
        return torch.relu(x + self.bn(self.conv(x)))


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


def mlp():
    net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    return torch.nn.functional.mse_loss(net(torch.randn(5, 4)), torch.zeros(5, 1))


def resnet():
    net = torch.nn.Sequential(Residual(), Residual())
    return net(torch.randn(1, 3, 6, 6)).mean()


def lstm_unrolled():
    cell = torch.nn.LSTMCell(3, 4)
    h = c = torch.zeros(1, 4)
    for _ in range(5):
        h, c = cell(torch.randn(1, 3), (h, c))
    return h.sum()


def shared_input():
    x = torch.randn(3, requires_grad=True)
    y = x * x  # the same input twice: two edges to one node
    return (Square.apply(y) + y.exp()).sum()


@pytest.mark.parametrize("build", [mlp, resnet, lstm_unrolled, shared_input])
def test_snapshot_matches_torchviz(build):
    torch.manual_seed(0)
    output = build()
    theirs_labels, theirs_edges = torchviz_structure(output)
    ours_labels, ours_edges = ours(output)
    assert len(ours_labels) == len(theirs_labels) and len(ours_edges) == len(theirs_edges)
    assert Counter(ours_labels.values()) == Counter(theirs_labels.values())
    assert canonical(ours_labels, ours_edges) == canonical(theirs_labels, theirs_edges)
