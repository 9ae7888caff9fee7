"""What the frames show when a loss has no graph: read from real modules and tensors."""
import types

import torch

from nb_autograd.capture.no_graph import frozen_optimizers, gradless_caches, grad_names, hook_code, no_grad_forwards


class Cached(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(2, 2)
        self.cache = None

    def forward(self):
        if self.cache is None:
            self.cache = torch.tanh(self.proj.weight)
        return self.cache


class Frozen(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(2, 2)

    @torch.no_grad()
    def forward(self, x):
        return self.proj(x)


def _frame(**names):
    return types.SimpleNamespace(f_locals=names)


def test_a_cache_filled_under_no_grad_is_found_and_one_with_a_graph_is_not():
    model = Cached()
    with torch.no_grad():
        model()
    assert gradless_caches([_frame(model=model)], {"model"}) == ("model.cache",)
    model.cache = None
    model()
    assert gradless_caches([_frame(model=model)], {"model"}) == ()


def test_a_forward_decorated_no_grad_is_found_at_its_decorator():
    found = no_grad_forwards([_frame(enc=Frozen(), plain=Cached())], {"enc", "plain"})
    assert len(found) == 1 and found[0][0] == __file__
    with open(__file__) as f:
        assert f.read().splitlines()[found[0][1] - 1].strip() == "@torch.no_grad()"


def test_a_users_forward_hook_is_found_on_a_submodule_and_a_library_one_is_not():
    net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())

    def keep(module, inputs, output):
        return None

    net[1].register_forward_hook(keep)
    holder = types.SimpleNamespace(encoder=net)  # a plain object holding the model
    assert hook_code([_frame(extractor=holder)], {"extractor"}) == ((__file__, keep.__code__.co_firstlineno),)
    assert hook_code([_frame(extractor=holder)], set()) == ()


def test_names_holding_a_graph_with_their_kind():
    w = torch.ones(2, requires_grad=True)
    found = dict(grad_names([_frame(loss=w * 2, log=[w * 3], plain=torch.ones(2), n=3)]))
    assert found == {"loss": "tensor", "log": "list"}


def test_an_optimizer_holding_only_frozen_parameters_is_named():
    frozen, live = torch.nn.Linear(2, 2).requires_grad_(False), torch.nn.Linear(2, 2)
    opt, other = torch.optim.SGD(frozen.parameters(), lr=0.1), torch.optim.SGD(live.parameters(), lr=0.1)
    assert frozen_optimizers([_frame(opt=opt, other=other, x=torch.ones(1))]) == ("opt",)
