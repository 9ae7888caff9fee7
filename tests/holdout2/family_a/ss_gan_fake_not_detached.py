# cause: shared_subgraph_multiple_backward
# line: 27
# why: The discriminator loss uses the generator output without detach, so d_loss.backward() frees G's graph and g_loss.backward() has to traverse it again.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def sample_ring(n):
    theta = torch.rand(n) * 2 * math.pi
    return torch.stack([torch.cos(theta), torch.sin(theta)], dim=1) + 0.05 * torch.randn(n, 2)


G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
D = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
ones, zeros = torch.ones(32, 1), torch.zeros(32, 1)
for step in range(3):
    real = sample_ring(32)
    fake = G(torch.randn(32, 4))

    opt_d.zero_grad()
    d_loss = F.binary_cross_entropy_with_logits(D(real), ones) + \
        F.binary_cross_entropy_with_logits(D(fake), zeros)
    d_loss.backward()
    opt_d.step()

    opt_g.zero_grad()
    g_loss = F.binary_cross_entropy_with_logits(D(fake), ones)
    g_loss.backward()
    opt_g.step()
