"""assign_detach: a detach written as a statement keeps its result; a loop variable is detached in place."""
from nb_autograd.fixes.assign_detach import assign_detach


def test_keeps_what_detach_returns_for_names_and_attributes():
    assert assign_detach("h.detach()  # cut\nh = f(h)\n", line=1) == "h = h.detach()  # cut\nh = f(h)\n"
    assert assign_detach("def reset(self):\n    self.h.detach()\n", line=2) == "def reset(self):\n    self.h = self.h.detach()\n"


def test_a_loop_variable_is_detached_in_place_since_rebinding_it_is_lost():
    import torch

    fixed = assign_detach("for s in state:\n    s.detach()\n", line=2)
    assert fixed == "for s in state:\n    s.detach_()\n"
    state = (torch.ones(2, requires_grad=True) * 2, torch.ones(2, requires_grad=True) * 3)
    exec(fixed, {"state": state})
    assert all(s.grad_fn is None and not s.requires_grad for s in state)  # the container's own tensors are cut
    assert assign_detach(fixed, line=2) is None  # idempotent


def test_refuses_what_it_cannot_make_right():
    assert assign_detach("h = h.detach()\n", line=1) is None                  # already kept: idempotent
    assert assign_detach("h.detach(1)\n", line=1) is None
    assert assign_detach("f(x).detach()\n", line=1) is None                  # nothing to assign back to


def test_no_in_place_detach_when_the_states_are_views():
    assert assign_detach("for s in state:\n    s.detach()\n", line=2, in_place=False) is None
    assert assign_detach("h.detach()\n", line=1, in_place=False) == "h = h.detach()\n"  # a rebinding is still fine
