"""assign_detach: a detach written as a statement keeps its result, except for a loop variable."""
from nb_autograd.fixes.assign_detach import assign_detach


def test_keeps_what_detach_returns_for_names_and_attributes():
    assert assign_detach("h.detach()  # cut\nh = f(h)\n", line=1) == "h = h.detach()  # cut\nh = f(h)\n"
    assert assign_detach("def reset(self):\n    self.h.detach()\n", line=2) == "def reset(self):\n    self.h = self.h.detach()\n"


def test_refuses_what_it_cannot_make_right():
    assert assign_detach("for h in states:\n    h.detach()\n", line=2) is None  # rebinding a loop variable is lost
    assert assign_detach("h = h.detach()\n", line=1) is None                  # already kept: idempotent
    assert assign_detach("h.detach(1)\n", line=1) is None
    assert assign_detach("f(x).detach()\n", line=1) is None                  # nothing to assign back to
