"""Reading a graph: which saved tensors were changed in place since they were saved."""
import torch

from nb_autograd.capture.graph import modified_in_place, snapshot


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
