"""derive_on_read: a value a constructor derives from its own parameter becomes a property."""
from nb_autograd.fixes.derive_on_read import derive_on_read

MODULE = """\
import torch
class Scaled(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.raw = torch.nn.Parameter(torch.zeros(dim))
        self.scale = self.raw.exp()

    def forward(self, x):
        return x * self.scale
"""


def test_the_value_is_derived_on_every_read_and_the_parameter_trains():
    import torch

    fixed = derive_on_read(MODULE, line=6)
    assert "self.scale = " not in fixed and "    @property\n    def scale(self):\n        return self.raw.exp()\n" in fixed
    ns: dict = {}
    exec(fixed, ns)
    model = ns["Scaled"](2)
    for _ in range(2):  # the second backward would fail on a value derived once
        model(torch.ones(2)).sum().backward()
    assert model.raw.grad is not None and derive_on_read(fixed, line=6) is None


def test_refuses_what_a_property_would_break():
    parent = "class Base:\n    def __init__(self):\n        self.scale = None\n" + MODULE.replace("torch.nn.Module", "Base")
    assert derive_on_read(parent, line=9) is None  # the parent sets it: a property has no setter
    local = MODULE.replace("self.raw.exp()", "self.raw.exp() * dim")
    assert derive_on_read(local, line=6) is None  # needs the constructor's own variable
    assert derive_on_read(MODULE, line=9) is None  # not in a constructor
