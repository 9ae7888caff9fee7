import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
student = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.requires_grad_(False)
opt = torch.optim.Adam(student.parameters(), lr=1e-2)
for step in range(4):
    x = torch.randn(6, 4)
    y = torch.randint(0, 2, (6,))
    s_out = student(x)
    with torch.no_grad():
        t_out = teacher(x + 0.1 * torch.randn_like(x))
    loss = F.cross_entropy(s_out, y) + F.mse_loss(s_out.softmax(1), t_out.softmax(1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for tp, sp in zip(teacher.parameters(), student.parameters()):
            tp.mul_(0.99).add_(sp, alpha=0.01)
