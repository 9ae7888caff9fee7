import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def compute_loss(model, batch):
    x, y = batch
    return F.cross_entropy(model(x), y)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    return sum(compute_loss(model, b).item() for b in loader) / len(loader)


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_loader = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(3)]
val_loader = [(torch.randn(8, 6), torch.randint(0, 3, (8,)))]

for epoch in range(2):
    model.train()
    for batch in train_loader:
        loss = compute_loss(model, batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    val_loss = evaluate(model, val_loader)
