import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

series = torch.sin(torch.linspace(0, 12, 121)).unsqueeze(0).unsqueeze(-1)
gru = nn.GRU(1, 16, batch_first=True)
head = nn.Linear(16, 1)
opt = torch.optim.Adam(list(gru.parameters()) + list(head.parameters()), lr=1e-2)
for epoch in range(2):
    h = None
    total = 0.0
    for i in range(0, 120, 20):
        x = series[:, i:i + 20]
        y = series[:, i + 1:i + 21]
        if h is not None:
            h = h.detach()
        out, h = gru(x, h)
        loss = F.mse_loss(head(out), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
