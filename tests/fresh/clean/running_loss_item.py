import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]
history = {"loss": []}
for epoch in range(2):
    total_loss = 0.0
    for xb, yb in data:
        opt.zero_grad()
        loss = F.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
        total_loss += loss.item()
    history["loss"].append(total_loss / len(data))
print(history)
