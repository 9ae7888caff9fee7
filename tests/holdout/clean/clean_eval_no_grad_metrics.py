import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def train_one_epoch(model, loader, optimizer):
    model.train()
    total = 0.0
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    preds, labels = [], []
    for x, y in loader:
        preds.append(model(x).softmax(dim=1).numpy())
        labels.append(y.numpy())
    preds, labels = np.concatenate(preds), np.concatenate(labels)
    return float((preds.argmax(1) == labels).mean())


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
train_loader = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(3)]
val_loader = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(2)]
for epoch in range(2):
    train_loss = train_one_epoch(model, train_loader, optimizer)
    val_acc = evaluate(model, val_loader)
