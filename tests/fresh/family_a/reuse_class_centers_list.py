# cause: tensor_reused_across_iterations
# line: 21
# why: Class centers are updated with graph-attached projections, so the next sample of the same class backpropagates into the earlier sample's freed graph.
import torch
import torch.nn as nn

torch.manual_seed(0)
samples = [torch.randn(4) for _ in range(6)]
labels = [0, 1, 0, 1, 2, 2]
proj = nn.Linear(4, 3)
opt = torch.optim.SGD(proj.parameters(), lr=0.05)
centers = [torch.zeros(3) for _ in range(3)]

for i, s in enumerate(samples):
    z = proj(s)
    c = labels[i]
    loss = ((z - centers[c]) ** 2).sum() + 0.1 * z.norm()
    opt.zero_grad()
    loss.backward()
    opt.step()
    centers[c] = 0.5 * centers[c] + 0.5 * z
    print(i, loss.item())
