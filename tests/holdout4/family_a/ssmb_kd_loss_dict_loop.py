# cause: shared_subgraph_multiple_backward
# line: 37
# why: Each entry of the losses dict shares the student forward and gets its own backward in the loop.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(10, 48), nn.ReLU(), nn.Linear(48, 6)).eval()
student = nn.Sequential(nn.Linear(10, 24), nn.ReLU(), nn.Linear(24, 6))
proj = nn.Linear(24, 48)   # maps student hidden to teacher hidden
opt = torch.optim.Adam(list(student.parameters()) + list(proj.parameters()), lr=1e-3)
T = 3.0
running = {"ce": 0.0, "kd": 0.0, "feat": 0.0}


def student_forward(x):
    h = student[1](student[0](x))
    return h, student[2](h)


for step in range(8):
    x = torch.randn(16, 10)
    y = torch.randint(0, 6, (16,))
    with torch.no_grad():
        t_h = teacher[1](teacher[0](x))
        t_logits = teacher[2](t_h)
    s_h, s_logits = student_forward(x)
    losses = {
        "ce": F.cross_entropy(s_logits, y),
        "kd": F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1),
                       reduction="batchmean") * T * T,
        "feat": F.mse_loss(proj(s_h), t_h),
    }
    opt.zero_grad()
    for name, l in losses.items():
        l.backward()
        running[name] += l.item()
    opt.step()
print({k: round(v / 8, 4) for k, v in running.items()})
