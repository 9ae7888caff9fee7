# cause: recurrent_state_not_detached
# line: 24
# why: h carries over from one chunk to the next without detach, so the second chunk's backward continues into the first chunk's freed GRUCell graph.
import math
import torch
import torch.nn as nn

torch.manual_seed(0)

T, B = 40, 4
t = torch.arange(T + 1).float()
signal = torch.stack([torch.sin(0.3 * t + p) for p in torch.linspace(0, math.pi, B)], dim=1)
signal = signal.unsqueeze(-1)  # (T+1, B, 1)

cell = nn.GRUCell(1, 24)
readout = nn.Linear(24, 1)
opt = torch.optim.RMSprop(list(cell.parameters()) + list(readout.parameters()), lr=3e-3)
chunk = 10

h = torch.zeros(B, 24)
for start in range(0, T, chunk):
    loss = 0.0
    for step in range(start, start + chunk):
        h = cell(signal[step], h)
        pred = readout(h)
        loss = loss + ((pred - signal[step + 1]) ** 2).mean()
    loss = loss / chunk
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"chunk {start // chunk}: {loss.item():.4f}")
