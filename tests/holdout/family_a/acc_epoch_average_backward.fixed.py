import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def train_one_epoch(model, loader, optimizer):
    model.train()
    epoch_loss = 0.0
    for i, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        epoch_loss += loss.item()
        optimizer.step()
    return float(epoch_loss) / len(loader)


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loader = [(torch.randn(10, 8), torch.randint(0, 3, (10,))) for _ in range(4)]
for epoch in range(2):
    train_one_epoch(model, loader, optimizer)
