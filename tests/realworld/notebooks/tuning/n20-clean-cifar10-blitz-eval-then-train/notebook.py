# source: https://pytorch.org/tutorials/beginner/blitz/cifar10_tutorial.html (the tutorial's Net, CrossEntropyLoss and SGD; the training iteration split into a forward/loss cell and a zero_grad/backward/step cell, a test cell under torch.no_grad(); random 3x32x32 images instead of CIFAR-10)
# scenario: clean
# order: 0 1 2 3 4 2 3
# expert: nothing to fix: after the test cell the forward/loss cell is re-run before the step cell, and the test loss has its own name.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
torch.manual_seed(0)
trainset = (torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,)))
testset = (torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,)))
# %%
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)  # flatten all dimensions except batch
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
# %%
inputs, labels = trainset
outputs = net(inputs)
loss = criterion(outputs, labels)
# %%
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
# %%
images, test_labels = testset
with torch.no_grad():
    outputs = net(images)
    test_loss = criterion(outputs, test_labels)
_, predicted = torch.max(outputs, 1)
print('test loss', test_loss.item(), 'accuracy', (predicted == test_labels).float().mean().item())
