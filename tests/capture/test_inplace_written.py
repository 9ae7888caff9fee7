"""What wrote the tensor an in-place error names, read from the user's frames."""
import sys

import torch

from nb_autograd.capture.inplace_written import optimizers_writing, tensors_writing

MESSAGE = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
           "[torch.FloatTensor [1, 8, 32]] is at version {}; expected version 0 instead.")


def test_a_buffer_with_the_errors_shape_and_version_is_named_not_a_parameter():
    model = torch.nn.Linear(32, 8)           # its weight has the shape too, but is a parameter
    model.register_buffer("queue", torch.zeros(8, 32))
    model.queue[:, :4] = 1.0                 # version 1
    frame = sys._getframe()
    assert tensors_writing(MESSAGE.format(1), [frame]) == ("model.queue",)
    assert tensors_writing(MESSAGE.format(2), [frame]) == ()
    assert tensors_writing("some other error", [frame]) == ()


def test_an_optimizer_holding_a_parameter_of_that_shape_and_version_is_named():
    model = torch.nn.Linear(32, 8)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model(torch.randn(2, 32)).sum().backward()
    opt.step()                               # the weight's version moves on
    version = model.weight._version
    saved_weight = MESSAGE.replace("[1, 8, 32]", "[32, 8]")  # a Linear saves weight.t()
    assert optimizers_writing(saved_weight.format(version), [sys._getframe()]) == ("opt",)
    assert tensors_writing(saved_weight.format(version), [sys._getframe()]) == ()  # a parameter: the optimizer's
