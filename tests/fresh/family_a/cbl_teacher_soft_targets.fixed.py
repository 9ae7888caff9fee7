import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
student = nn.Linear(4, 3)
x = torch.randn(32, 4)
opt = torch.optim.Adam(student.parameters(), lr=1e-2)
T = 2.0

with torch.no_grad():
    soft_targets = F.softmax(teacher(x) / T, dim=1)
for epoch in range(3):
    for i in range(0, 32, 8):
        log_p = F.log_softmax(student(x[i:i + 8]) / T, dim=1)
        loss = F.kl_div(log_p, soft_targets[i:i + 8], reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())
