# needs: cuda
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda")
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(5, 4), torch.randn(5, 1)) for _ in range(3)]
for x, y in data:
    x, y = x.to(device), y.to(device)
    out = model(x)
    loss = nn.functional.mse_loss(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
