import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
criterion = nn.MSELoss(reduction="none")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    weights = torch.rand(8, 1)
    loss = (criterion(model(x), y) * weights).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
