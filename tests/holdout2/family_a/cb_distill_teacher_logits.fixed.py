import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

X = torch.randn(80, 20)
Y = (X[:, :5].sum(1) > 0).long() + (X[:, 5] > 1).long()
teacher = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
student = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 3))

teacher.eval()
with torch.no_grad():
    teacher_logits = teacher(X)

opt = torch.optim.Adam(student.parameters(), lr=3e-3)
T = 2.0
batch = 20
for epoch in range(2):
    for i in range(0, X.shape[0], batch):
        xb, yb = X[i:i + batch], Y[i:i + batch]
        tb = teacher_logits[i:i + batch]
        s = student(xb)
        kd = F.kl_div(F.log_softmax(s / T, dim=1), F.softmax(tb / T, dim=1), reduction="batchmean") * T * T
        loss = 0.7 * kd + 0.3 * F.cross_entropy(s, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
