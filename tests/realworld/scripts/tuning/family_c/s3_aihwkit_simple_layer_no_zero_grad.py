# source: https://github.com/IBM/aihwkit/issues/446
# style: tutorial
# cause: grads_not_zeroed
# line: 32
# expert: call opt.zero_grad() every iteration (before loss.backward(), or right after opt.step()) so gradients of earlier epochs are not added to the current one
"""aihwkit example 1: simple network with one layer (analog layer replaced by nn.Linear,
AnalogSGD by SGD so it runs without the simulator)."""
import torch
from torch import Tensor
from torch.nn import Linear
from torch.nn.functional import mse_loss
from torch.optim import SGD

torch.manual_seed(0)

# Prepare the datasets (input and expected output).
x = Tensor([[0.1, 0.2, 0.4, 0.3], [0.2, 0.1, 0.1, 0.3]])
y = Tensor([[1.0, 0.5], [0.7, 0.3]])

# Define a single-layer network.
model = Linear(4, 2, bias=True)

# Define the optimizer.
opt = SGD(model.parameters(), lr=0.1)

for epoch in range(10):
    # Add the training Tensor to the model (input).
    pred = model(x)
    # Add the expected output Tensor.
    loss = mse_loss(pred, y)
    # Run training (backward propagation).
    loss.backward()

    opt.step()
    print('Loss error: {:.16f}'.format(loss))
