import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

xs = torch.linspace(-2, 2, 64).unsqueeze(1)
ys = xs.pow(3) - xs + 0.1 * torch.randn_like(xs)
model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for step in range(20):
    loss = F.mse_loss(model(xs), ys)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

model.eval()
with torch.no_grad():
    curve = np.stack([xs.squeeze(1).numpy(), model(xs).squeeze(1).numpy()])
