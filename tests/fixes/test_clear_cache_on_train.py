"""clear_cache_on_train: a module's forward cache emptied when it goes back to training mode,
only when the constructor starts it empty and the class has no train() of its own."""
from nb_autograd.fixes.clear_cache_on_train import clear_cache_on_train

from .helpers import run

SRC = """\
import torch

class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 4)
        self.cache = None

    def forward(self):
        if self.cache is None:
            self.cache = torch.tanh(self.proj.weight)
        return self.cache

enc = Encoder()
enc.eval()
with torch.no_grad():
    enc()
enc.train()
loss = enc().sum()
"""


def test_the_cache_is_recomputed_with_a_graph_after_train():
    patched = clear_cache_on_train(SRC, line=11, attr="cache")
    assert "    def train(self, mode=True):\n" in patched
    assert "            self.cache = None\n" in patched
    assert run(patched)["loss"].requires_grad
    assert not run(SRC)["loss"].requires_grad
    assert clear_cache_on_train(patched, line=16, attr="cache") is None  # it has its train() now


def test_not_when_the_cache_does_not_start_empty():
    assert clear_cache_on_train(SRC.replace("self.cache = None", "self.cache = torch.zeros(4, 4)"), line=11, attr="cache") is None


def test_not_outside_a_class():
    assert clear_cache_on_train("import torch\ncache = torch.zeros(2)\n", line=2, attr="cache") is None
