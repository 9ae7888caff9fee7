import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
cell = nn.LSTMCell(3, 6)
head = nn.Linear(6, 3)
opt = torch.optim.Adam(list(cell.parameters()) + list(head.parameters()), lr=1e-2)
sequences = [torch.randn(7, 2, 3) for _ in range(3)]
for seq in sequences:
    hx = torch.zeros(2, 6)
    cx = torch.zeros(2, 6)
    loss = 0.0
    for t in range(seq.size(0) - 1):
        hx, cx = cell(seq[t], (hx, cx))
        loss = loss + F.mse_loss(head(hx), seq[t + 1])
    opt.zero_grad()
    loss.backward()
    opt.step()
