# cause: double_backward
# line: 29
# why: The Fisher estimate uses torch.autograd.grad(loss, params), which frees the graph, and then loss.backward() is called on the same loss for the training step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
params = [p for p in net.parameters()]
opt = torch.optim.SGD(params, lr=0.05)

# task A data; Fisher diagonal is estimated on the fly while training task A
xa = torch.randn(96, 10)
ya = torch.randint(0, 4, (96,))
fisher = [torch.zeros_like(p) for p in params]
n_batches = 0

for epoch in range(2):
    for i in range(0, 96, 32):
        xb, yb = xa[i:i + 32], ya[i:i + 32]
        loss = F.cross_entropy(net(xb), yb)
        grads = torch.autograd.grad(loss, params)
        for f, g in zip(fisher, grads):
            f += g.detach() ** 2
        n_batches += 1
        opt.zero_grad()
        loss.backward()
        opt.step()

fisher = [f / n_batches for f in fisher]
anchor = [p.detach().clone() for p in params]
print([f.mean().item() for f in fisher])
