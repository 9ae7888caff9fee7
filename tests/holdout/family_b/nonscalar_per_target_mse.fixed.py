import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

TARGETS = ["price", "volume", "spread"]


def train_one_epoch(model, loader, optimizer, history):
    model.train()
    for x, y in loader:
        pred = model(x)
        per_target = F.mse_loss(pred, y, reduction="none").mean(dim=0)
        history.append({name: v.item() for name, v in zip(TARGETS, per_target)})
        loss = per_target.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, len(TARGETS)))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = [(torch.randn(10, 5), torch.randn(10, len(TARGETS))) for _ in range(3)]
history = []
for epoch in range(2):
    train_one_epoch(model, loader, optimizer, history)
