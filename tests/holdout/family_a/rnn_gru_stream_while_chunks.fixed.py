import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

gru = nn.GRU(3, 16, batch_first=True)
head = nn.Linear(16, 1)
optimizer = torch.optim.Adam(list(gru.parameters()) + list(head.parameters()), lr=1e-2)

signal = torch.randn(2, 60, 3)
target = 0.1 * signal[..., :1].cumsum(dim=1)
h = torch.zeros(1, 2, 16)
pos, chunk = 0, 15
while pos < signal.size(1):
    x, y = signal[:, pos:pos + chunk], target[:, pos:pos + chunk]
    out, h = gru(x, h.detach())
    loss = F.mse_loss(head(out), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    pos += chunk
