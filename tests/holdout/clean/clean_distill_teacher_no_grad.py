import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

teacher = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 5))
student = nn.Sequential(nn.Linear(12, 8), nn.ReLU(), nn.Linear(8, 5))
optimizer = torch.optim.Adam(student.parameters(), lr=1e-2)
X = torch.randn(40, 12)
Y = torch.randint(0, 5, (40,))
T, alpha = 2.0, 0.7

teacher.eval()
with torch.no_grad():
    teacher_logits = teacher(X)

for epoch in range(3):
    for idx in torch.randperm(X.size(0)).split(10):
        s_logits = student(X[idx])
        kd = F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(teacher_logits[idx] / T, dim=1),
                      reduction="batchmean") * T * T
        loss = alpha * kd + (1 - alpha) * F.cross_entropy(s_logits, Y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
