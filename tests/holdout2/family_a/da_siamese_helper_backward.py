# cause: double_backward
# line: 43
# why: contrastive_step() already calls loss.backward() internally and the training loop calls loss.backward() again on the same graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class EmbeddingNet(nn.Module):
    def __init__(self, d_in=12, d_emb=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 32), nn.Tanh(), nn.Linear(32, d_emb))

    def forward(self, x):
        return F.normalize(self.body(x), dim=-1)


def contrastive_step(net, a, b, same, margin=1.0):
    za, zb = net(a), net(b)
    d = F.pairwise_distance(za, zb)
    loss = (same * d.pow(2) + (1 - same) * F.relu(margin - d).pow(2)).mean()
    loss.backward()
    return loss


pairs_a = torch.randn(40, 12)
pairs_b = pairs_a + 0.1 * torch.randn(40, 12)
pairs_b[20:] = torch.randn(20, 12)
same = torch.ones(40)
same[20:] = 0

net = EmbeddingNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
epoch_losses = []
for epoch in range(3):
    perm = torch.randperm(40)
    for i in range(0, 40, 10):
        idx = perm[i:i + 10]
        opt.zero_grad()
        loss = contrastive_step(net, pairs_a[idx], pairs_b[idx], same[idx])
        loss.backward()
        opt.step()
    epoch_losses.append(loss.item())
