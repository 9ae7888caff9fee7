# cause: accumulated_loss_backward_in_loop
# line: 25
# why: loss is created once outside the loop and each step does loss += ..., so backward in step 2 also runs through step 1's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

teacher = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 6)).eval()
student = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 6))
opt = torch.optim.Adam(student.parameters(), lr=1e-3)
T, alpha = 4.0, 0.7

loss = torch.zeros(())
for step in range(6):
    x = torch.randn(32, 12)
    y = torch.randint(0, 6, (32,))
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    kd = F.kl_div(F.log_softmax(s_logits / T, dim=1),
                  F.softmax(t_logits / T, dim=1), reduction="batchmean") * T * T
    ce = F.cross_entropy(s_logits, y)
    loss += alpha * kd + (1 - alpha) * ce
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
