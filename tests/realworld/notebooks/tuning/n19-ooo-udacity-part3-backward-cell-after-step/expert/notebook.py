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

# recompute the loss here so this cell can be re-run at any point
logps = model(images.view(images.shape[0], -1))
loss = criterion(logps, labels)
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
