# cause: tensor_reused_across_iterations
# line: 20
# why: The EMA target is updated from graph-attached features, so the next iteration's loss backpropagates into the previous iteration's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
encoder = nn.Linear(6, 4)
opt = torch.optim.SGD(encoder.parameters(), lr=0.1)
ema = torch.zeros(4)

for it in range(5):
    x = torch.randn(8, 6)
    feat = torch.tanh(encoder(x)).mean(0)
    loss = F.mse_loss(feat, ema) + 0.01 * feat.pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema = 0.9 * ema + 0.1 * feat
    print(it, loss.item())
