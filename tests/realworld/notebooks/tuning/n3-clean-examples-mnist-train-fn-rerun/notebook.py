# source: https://github.com/pytorch/examples/blob/main/mnist/main.py
# scenario: clean
# order: 0 1 2 3 3
# expert: nothing to fix: train() builds a fresh graph for every batch (optimizer.zero_grad(), output = model(data), loss.backward(), optimizer.step()) and only logs loss.item(), so running the epoch cell again is fine
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
torch.manual_seed(1)

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output
# %%
def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % args["log_interval"] == 0:
            print('Train Epoch: {} [{}/{}]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader) * len(data), loss.item()))
# %%
args = {"log_interval": 2, "epochs": 1, "lr": 1.0, "gamma": 0.7}
device = torch.device("cpu")
train_loader = [(torch.randn(8, 1, 8, 8), torch.randint(0, 10, (8,))) for _ in range(4)]
model = Net().to(device)
optimizer = optim.Adadelta(model.parameters(), lr=args["lr"])
scheduler = StepLR(optimizer, step_size=1, gamma=args["gamma"])
# %%
for epoch in range(1, args["epochs"] + 1):
    train(args, model, device, train_loader, optimizer, epoch)
    scheduler.step()
