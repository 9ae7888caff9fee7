# source: https://github.com/bentrevett/pytorch-image-classification/issues/1
# scenario: out_of_order
# cause: no_grad_fn
# root: cell 3 line 2
# order: 0 1 2 4 3 5 6 7
# expert: the freeze cell was run after the cell that swaps in the new 2-class model.fc, so the new head was frozen too and nothing in the loss requires grad; as the thread explains, only the pretrained layers are to be frozen and the new fc must stay trainable (it is trainable because it is created after the freeze), so re-enable model.fc's parameters after the freeze loop
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

import os
import random
import numpy as np

SEED = 1234

random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)
torch.backends.cudnn.deterministic = True

# tiny random stand-in for the dogs-vs-cats ImageFolder splits
train_x, train_y = torch.randn(16, 3, 32, 32), torch.randint(0, 2, (16,))
valid_x, valid_y = torch.randn(8, 3, 32, 32), torch.randint(0, 2, (8,))
BATCH_SIZE = 8
train_iterator = list(zip(train_x.split(BATCH_SIZE), train_y.split(BATCH_SIZE)))
valid_iterator = list(zip(valid_x.split(BATCH_SIZE), valid_y.split(BATCH_SIZE)))
device = torch.device('cpu')
# %%
class BasicBlock(nn.Module):
    def __init__(self, planes):
        super().__init__()
        self.conv1 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + x)

class ResNet(nn.Module):
    """small stand-in for torchvision's models.resnet18(pretrained=True)"""
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU(inplace=True)
        self.layer1 = nn.Sequential(BasicBlock(16), BasicBlock(16))
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer1(x)
        x = self.avgpool(x).flatten(1)
        return self.fc(x)
# %%
model = ResNet().to(device)
print(model.fc)
# %%
for param in model.parameters():
    param.requires_grad = False
# %%
model.fc = nn.Linear(in_features=16, out_features=2).to(device)
# %%
optimizer = optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss()
# %%
def calculate_accuracy(fx, y):
    preds = fx.max(1, keepdim=True)[1]
    correct = preds.eq(y.view_as(preds)).sum()
    acc = correct.float()/preds.shape[0]
    return acc

def train(model, device, iterator, optimizer, criterion):
    epoch_loss = 0
    epoch_acc = 0
    model.train()
    for (x, y) in iterator:
        x = x.to(device)
        y = y.to(device)
        optimizer.zero_grad()
        fx = model(x)
        loss = criterion(fx, y)
        acc = calculate_accuracy(fx, y)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
        epoch_acc += acc.item()
    return epoch_loss / len(iterator), epoch_acc / len(iterator)

def evaluate(model, device, iterator, criterion):
    epoch_loss = 0
    epoch_acc = 0
    model.eval()
    with torch.no_grad():
        for (x, y) in iterator:
            x = x.to(device)
            y = y.to(device)
            fx = model(x)
            loss = criterion(fx, y)
            acc = calculate_accuracy(fx, y)
            epoch_loss += loss.item()
            epoch_acc += acc.item()
    return epoch_loss / len(iterator), epoch_acc / len(iterator)
# %%
EPOCHS = 2
for epoch in range(EPOCHS):
    train_loss, train_acc = train(model, device, train_iterator, optimizer, criterion)
    valid_loss, valid_acc = evaluate(model, device, valid_iterator, criterion)
    print(f'| Epoch: {epoch+1:02} | Train Loss: {train_loss:.3f} | Train Acc: {train_acc*100:05.2f}% | Val. Loss: {valid_loss:.3f} | Val. Acc: {valid_acc*100:05.2f}% |')
