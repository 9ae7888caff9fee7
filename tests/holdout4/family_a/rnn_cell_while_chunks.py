# cause: recurrent_state_not_detached
# line: 23
# why: h from nn.RNNCell keeps flowing into the next chunk without detach, so the chunk backward reaches the previous chunk's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
cell = nn.RNNCell(2, 16)
readout = nn.Linear(16, 1)
params = list(cell.parameters()) + list(readout.parameters())
opt = torch.optim.RMSprop(params, lr=1e-3)
# predict a (scaled) running sum of the first input channel
seq = torch.randn(60, 8, 2)
target = seq[..., :1].cumsum(0) * 0.1
h = torch.zeros(8, 16)
t = 0
k = 10
losses = []
while t < seq.shape[0]:
    chunk_loss = 0.0
    for s in range(t, t + k):
        h = cell(seq[s], h)
        chunk_loss = chunk_loss + F.mse_loss(readout(h), target[s])
    opt.zero_grad()
    chunk_loss.backward()
    opt.step()
    losses.append(chunk_loss.item() / k)
    t += k
print([round(v, 3) for v in losses])
