# cause: recurrent_state_not_detached
# line: 21
# why: (h, c) from the LSTMCell keep flowing across truncation boundaries without detach, so the next truncated backward hits the freed earlier window.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

cell = nn.LSTMCell(2, 12)
readout = nn.Linear(12, 1)
optimizer = torch.optim.RMSprop(list(cell.parameters()) + list(readout.parameters()), lr=1e-3)

T, B = 32, 3
seq = torch.randn(T, B, 2)
target = torch.sin(seq.sum(-1, keepdim=True).cumsum(0))
h, c = torch.zeros(B, 12), torch.zeros(B, 12)
k = 8
losses = []
for t in range(T):
    h, c = cell(seq[t], (h, c))
    losses.append(F.mse_loss(readout(h), target[t]))
    if (t + 1) % k == 0:
        loss = torch.stack(losses).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses = []
