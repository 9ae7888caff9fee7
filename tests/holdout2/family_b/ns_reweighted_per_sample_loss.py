# cause: non_scalar_backward
# line: 20
# why: With reduction='none' the re-weighted loss is still a per-sample vector, and backward() is called on it without a reduction.
import torch
import torch.nn as nn

torch.manual_seed(0)

X = torch.randn(40, 5)
Y = torch.cat([torch.zeros(32), torch.ones(6), 2 * torch.ones(2)]).long()
class_weights = 1.0 / torch.bincount(Y).float()
model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3))
criterion = nn.CrossEntropyLoss(reduction="none")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    per_sample = criterion(model(X), Y)
    w = class_weights[Y]
    loss = per_sample * w
    opt.zero_grad()
    loss.backward()
    opt.step()
