import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
history = []
for epoch in range(3):
    x, y = torch.randn(6, 3), torch.randn(6, 1)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(loss.item())
print(np.mean(history))
