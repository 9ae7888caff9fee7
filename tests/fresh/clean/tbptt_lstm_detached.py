import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
lstm = nn.LSTM(3, 8, batch_first=True)
head = nn.Linear(8, 3)
opt = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=1e-2)
series = torch.randn(2, 41, 3)
state = None
for start in range(0, 40, 8):
    x = series[:, start:start + 8]
    y = series[:, start + 1:start + 9]
    if state is not None:
        state = tuple(s.detach() for s in state)
    out, state = lstm(x, state)
    loss = F.mse_loss(head(out), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
