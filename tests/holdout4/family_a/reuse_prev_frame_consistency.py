# cause: tensor_reused_across_iterations
# line: 24
# why: prev_out keeps the previous frame's graph, and the temporal-consistency term backpropagates into it next step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
# per-frame predictions on a short clip with a temporal smoothness penalty
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
frames = torch.randn(12, 4, 16)   # time, batch, features
targets = torch.randn(12, 4, 8)
lam = 0.1
prev_out = None
for t in range(frames.shape[0]):
    out = model(frames[t])
    loss = F.mse_loss(out, targets[t])
    if prev_out is not None:
        loss = loss + lam * F.mse_loss(out, prev_out)
    opt.zero_grad()
    loss.backward()
    opt.step()
    prev_out = out
print("last loss", loss.item())
