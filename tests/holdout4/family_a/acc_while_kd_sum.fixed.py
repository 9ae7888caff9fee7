import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 5)).eval()
student = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 5))
opt = torch.optim.Adam(student.parameters(), lr=3e-3)
T = 2.0
data = torch.randn(96, 12)
kd_sum = 0.0
n_batches = 0
pos = 0
while pos < data.shape[0]:
    xb = data[pos:pos + 16]
    with torch.no_grad():
        t_logits = teacher(xb)
    s_logits = student(xb)
    kd = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1),
                  reduction="batchmean") * T * T
    kd_sum += kd.item()
    n_batches += 1
    opt.zero_grad()
    kd.backward()
    opt.step()
    pos += 16
print("mean KD loss", kd_sum / n_batches)
