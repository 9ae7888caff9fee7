import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

x = torch.linspace(-1, 1, 50).unsqueeze(1)
y = torch.sin(3 * x) + 0.05 * torch.randn_like(x)
model = nn.Sequential(nn.Linear(1, 20), nn.Tanh(), nn.Linear(20, 1))
optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=4)


def closure():
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    return loss


history = []
for it in range(3):
    loss = optimizer.step(closure)
    history.append(loss.item())
