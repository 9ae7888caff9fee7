# cause: double_backward
# line: 26
# why: When the gradient norm is too large the code re-runs backward on a scaled copy of the already-freed loss graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
X = torch.randn(32, 8) * 5
Y = torch.randn(32, 1)
max_norm = 1.0
step = 0
losses = []
while step < 20:
    idx = torch.randint(0, 32, (8,))
    pred = model(X[idx])
    loss = ((pred - Y[idx]) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    norm = torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))
    if norm > max_norm:
        # gradient too large: redo the backward with a down-scaled loss
        opt.zero_grad()
        (loss * (max_norm / norm)).backward()
    opt.step()
    losses.append(loss.item())
    step += 1
print("loss", losses[0], "->", losses[-1])
