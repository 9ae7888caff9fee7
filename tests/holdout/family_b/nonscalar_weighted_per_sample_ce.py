# cause: non_scalar_backward
# line: 19
# why: the per-sample weighted loss from reduction='none' is still a vector when backward() is called.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(7, 16), nn.ReLU(), nn.Linear(16, 4))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(3):
    x, y = torch.randn(12, 7), torch.randint(0, 4, (12,))
    weights = torch.where(y == 0, 3.0, 1.0)
    per_sample = F.cross_entropy(model(x), y, reduction="none")
    loss = per_sample * weights
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
