import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
lstm = nn.LSTM(4, 6)
proj = nn.Linear(6, 4)
opt = torch.optim.Adam(list(lstm.parameters()) + list(proj.parameters()), lr=1e-2)
seq = torch.randn(30, 2, 4)

h = torch.zeros(1, 2, 6)
c = torch.zeros(1, 2, 6)
for i in range(0, 24, 6):
    inp = seq[i:i + 6]
    tgt = seq[i + 1:i + 7]
    out, (h, c) = lstm(inp, (h.detach(), c.detach()))
    loss = F.mse_loss(proj(out), tgt)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(i, loss.item())
