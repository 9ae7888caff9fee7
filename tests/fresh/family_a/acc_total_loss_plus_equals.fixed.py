import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)

total_loss = 0.0
for i, (xb, yb) in enumerate(data):
    opt.zero_grad()
    loss = F.mse_loss(model(xb), yb)
    total_loss += loss.item()
    loss.backward()
    opt.step()
print("mean loss", total_loss / len(data))
