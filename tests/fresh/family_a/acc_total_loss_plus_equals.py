# cause: accumulated_loss_backward_in_loop
# line: 17
# why: total_loss += loss keeps every earlier batch's graph inside total_loss, and total_loss.backward() is called in every iteration.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)

total_loss = 0
for i, (xb, yb) in enumerate(data):
    opt.zero_grad()
    loss = F.mse_loss(model(xb), yb)
    total_loss += loss
    total_loss.backward()
    opt.step()
print("mean loss", total_loss / len(data))
