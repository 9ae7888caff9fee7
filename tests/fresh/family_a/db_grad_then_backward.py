# cause: double_backward
# line: 23
# why: autograd.grad() on the loss (for logging the gradient norm) frees the graph, then loss.backward() walks the same graph again.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 10), nn.ReLU(), nn.Linear(10, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
params = list(net.parameters())
grad_log = []

for step in range(4):
    x = torch.randn(8, 3)
    y = (x.sum(1, keepdim=True) > 0).float()
    logits = net(x)
    loss = F.binary_cross_entropy_with_logits(logits, y)
    grads = torch.autograd.grad(loss, params)
    gnorm = torch.sqrt(sum((g ** 2).sum() for g in grads))
    grad_log.append(gnorm.item())
    opt.zero_grad()
    loss.backward()
    opt.step()

print(grad_log)
