# cause: accumulated_loss_backward_in_loop
# line: 25
# why: task_losses[t] keeps summing graph-attached losses across steps (meant for logging) and total = sum(task_losses.values()) is backpropagated every step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

encoder = nn.Sequential(nn.Linear(8, 32), nn.GELU())
heads = nn.ModuleDict({
    "depth": nn.Linear(32, 1),
    "normal": nn.Linear(32, 3),
    "edge": nn.Linear(32, 1),
})
weights = {"depth": 1.0, "normal": 0.5, "edge": 0.2}
opt = torch.optim.Adam(list(encoder.parameters()) + list(heads.parameters()), lr=1e-3)

task_losses = {t: 0.0 for t in heads}
for step in range(5):
    x = torch.randn(16, 8)
    targets = {"depth": x[:, :1].abs(), "normal": F.normalize(x[:, :3], dim=1), "edge": (x[:, 3:4] > 0).float()}
    feats = encoder(x)
    for t, head in heads.items():
        task_losses[t] = task_losses[t] + weights[t] * F.mse_loss(head(feats), targets[t])
    total = sum(task_losses.values())
    opt.zero_grad()
    total.backward()
    opt.step()

print({t: float(v) for t, v in task_losses.items()})
