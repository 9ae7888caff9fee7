# source: https://github.com/udacity/deep-learning-v2-pytorch/blob/master/intro-to-pytorch/Part%203%20-%20Training%20Neural%20Networks%20(Solution).ipynb
# scenario: out_of_order
# order: 0 1 2 3 4 5 2
# cause: double_backward
# root: cell 4 line 11
# expert: The "Before/After backward pass" cell only calls loss.backward() on whatever `loss` the kernel holds; after the one-step training cell further down the page, `loss` is that cell's loss, whose graph its own loss.backward() already freed, so going back up and re-running the inspection cell backpropagates the same graph a second time. Recompute the forward pass and loss in the cell that calls backward (or re-run the "Loss and Autograd together" cell first).
# %%
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
# random stand-in for the normalized MNIST trainloader (batches of 64 flattened-able images)
trainloader = [(torch.rand(64, 1, 28, 28) * 2 - 1, torch.randint(0, 10, (64,))) for _ in range(4)]
# %%
# Build a feed-forward network
model = nn.Sequential(nn.Linear(784, 128),
                      nn.ReLU(),
                      nn.Linear(128, 64),
                      nn.ReLU(),
                      nn.Linear(64, 10),
                      nn.LogSoftmax(dim=1))

criterion = nn.NLLLoss()
images, labels = next(iter(trainloader))
images = images.view(images.shape[0], -1)

logps = model(images)
loss = criterion(logps, labels)
# %%
print('Before backward pass: \n', model[0].weight.grad)

loss.backward()

print('After backward pass: \n', model[0].weight.grad)
# %%
from torch import optim

# Optimizers require the parameters to optimize and a learning rate
optimizer = optim.SGD(model.parameters(), lr=0.01)
# %%
print('Initial weights - ', model[0].weight)

images, labels = next(iter(trainloader))
images.resize_(64, 784)

# Clear the gradients, do this because gradients are accumulated
optimizer.zero_grad()

# Forward pass, then backward pass, then update weights
output = model.forward(images)
loss = criterion(output, labels)
loss.backward()
print('Gradient -', model[0].weight.grad)
# %%
# Take an update step and few the new weights
optimizer.step()
print('Updated weights - ', model[0].weight)
