# cause: computed_before_loop
# line: 14
# why: The loss (with the whole forward pass) is computed once before the epoch loop, and the loop only calls loss.backward() on that same graph each epoch.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 8), nn.Sigmoid(), nn.Linear(8, 1))
x = torch.randn(16, 3)
y = x[:, :1] * 2 - x[:, 1:2]
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

loss = criterion(model(x), y)
for epoch in range(10):
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
