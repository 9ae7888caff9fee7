import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(16, 4)
Y = torch.randn(16, 1)

for epoch in range(3):
    opt.zero_grad()
    pred = model(X)
    loss = nn.functional.mse_loss(pred, Y)
    loss.backward()
    grad_norm = sum(p.grad.norm() ** 2 for p in model.parameters()) ** 0.5
    opt.step()
    print(epoch, loss.item(), float(grad_norm))
