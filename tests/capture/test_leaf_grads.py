"""Hand-written updates that never clear .grad: found on the leaf, by the name the frame gives it."""
import sys

import torch

from nb_autograd.capture.graph import nodes_below
from nb_autograd.capture.leaf_grads import LeafGrads


def _train(steps: int, *, clear: bool = False, update_every: int = 1):
    torch.manual_seed(0)
    w = torch.zeros(3, requires_grad=True)
    watch = LeafGrads()
    for step in range(steps):
        loss = ((w * torch.randn(3)).sum() - 1) ** 2
        watch.pick(nodes_below([loss.grad_fn]))
        watch.before_backward(sys._getframe(), frozenset({"w"}), None, 16)
        loss.backward()
        if (step + 1) % update_every == 0:
            with torch.no_grad():
                w -= 0.1 * w.grad
            if clear:
                w.grad.zero_()
    return watch.found


def test_a_gradient_added_into_across_updates_is_found_with_its_name_and_line():
    assert _train(6) == ("w", False, 16)


def test_a_gradient_cleared_after_each_update_or_accumulated_on_purpose_is_not():
    assert _train(6, clear=True) is None
    assert _train(16, clear=True, update_every=4) is None
    assert _train(2) is None  # too few calls to tell
