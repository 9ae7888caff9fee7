import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
class_counts = torch.tensor([50.0, 10.0, 5.0])
class_w = class_counts.sum() / (len(class_counts) * class_counts)

for step in range(3):
    x = torch.randn(20, 12)
    y = torch.randint(0, 3, (20,))
    per_sample = F.cross_entropy(model(x), y, reduction="none")
    loss = (per_sample * class_w[y]).sum() / class_w[y].sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
