"""optimizers_training_freed: read from real graphs whose generator part an earlier backward freed."""
import types

import torch

from nb_autograd.capture.freed_trainers import optimizers_training_freed
from nb_autograd.capture.graph import ids_below


def _after_generator_step():
    """(frames, failing roots, stale ids): the generator's loss backpropagated, then the
    critic's loss built on the same output; the critic's optimizer kept on an object."""
    torch.manual_seed(0)
    G, D = torch.nn.Linear(2, 4), torch.nn.Linear(4, 1)
    fake = G(torch.randn(8, 2))
    stale = ids_below([fake.grad_fn], 1000)
    (-D(fake).mean()).backward()
    loss_d = D(fake).mean() - D(torch.randn(8, 4)).mean()
    names = {"opt_g": torch.optim.SGD(G.parameters(), lr=0.1),
             "trainer": types.SimpleNamespace(opt_d=torch.optim.SGD(D.parameters(), lr=0.1)),
             "both": torch.optim.SGD([*G.parameters(), *D.parameters()], lr=0.1)}
    return [types.SimpleNamespace(f_locals=names)], [loss_d.grad_fn], stale


def test_the_optimizers_holding_what_made_the_freed_part_are_named():
    frames, roots, stale = _after_generator_step()
    assert optimizers_training_freed(frames, roots, stale, 1000) == ("opt_g", "both")  # not trainer.opt_d


def test_no_room_says_nothing():
    frames, roots, stale = _after_generator_step()
    assert optimizers_training_freed(frames, roots, stale, 2) is None
    assert optimizers_training_freed([types.SimpleNamespace(f_locals={})], roots, stale, 1000) == ()
