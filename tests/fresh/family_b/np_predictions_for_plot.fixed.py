import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.linspace(-1, 1, 20).unsqueeze(1)
y = x ** 2
for epoch in range(3):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    preds = model(x).numpy()
np.savetxt("/dev/null", np.hstack([x.numpy(), preds]))
