"""Reading a graph: which saved tensors were changed in place since they were saved, and which
leaves a graph trains."""
import torch

from nb_autograd.capture.graph import leaves_below, modified_in_place, node_id, snapshot


def test_the_node_whose_saved_tensor_was_written_is_found_and_only_it():
    x = torch.randn(4, requires_grad=True)
    h = torch.relu(x * 2)   # ReluBackward0 saves its result
    kept = torch.sigmoid(x)  # SigmoidBackward0 saves its result too, left alone
    h += 1
    loss = (h * kept).sum()
    graph = snapshot([loss.grad_fn], versions=True)
    modified = [graph.node(i).op for i in graph.modified]
    assert modified == ["ReluBackward0"]
    assert modified_in_place(h.grad_fn.next_functions[0][0])
    assert not modified_in_place(kept.grad_fn)


def test_versions_are_read_only_when_asked():
    x = torch.randn(4, requires_grad=True)
    h = torch.relu(x)
    h += 1
    assert snapshot([h.sum().grad_fn]).modified == ()


def test_leaves_below_stop_at_the_nodes_left_out_and_say_when_the_graph_was_not_read_whole():
    g, d = torch.nn.Linear(3, 3), torch.nn.Linear(3, 1)
    fake = torch.tanh(g(torch.randn(2, 3)))
    loss = d(fake).sum()
    weights = {id(p) for p in d.parameters()}
    assert leaves_below([loss.grad_fn], 100) == weights | {id(p) for p in g.parameters()}
    met: list = []
    assert leaves_below([loss.grad_fn], 100, stop={node_id(fake.grad_fn)}, met=met) == weights
    assert met == [fake.grad_fn]
    assert leaves_below(met, 100) == {id(p) for p in g.parameters()}
    assert leaves_below([loss.grad_fn], 2) is None
