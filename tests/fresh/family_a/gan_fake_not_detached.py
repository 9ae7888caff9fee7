# cause: shared_subgraph_multiple_backward
# line: 22
# why: The discriminator loss uses G's output without detach, so d_loss.backward() frees the generator graph that g_loss.backward() then needs.
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
bce = nn.BCEWithLogitsLoss()
real_data = torch.randn(64, 2) * 0.5 + 1.0
ones, zeros = torch.ones(16, 1), torch.zeros(16, 1)

for step in range(3):
    real = real_data[torch.randint(0, 64, (16,))]
    z = torch.randn(16, 2)
    fake = G(z)

    opt_d.zero_grad()
    d_loss = bce(D(real), ones) + bce(D(fake), zeros)
    d_loss.backward()
    opt_d.step()

    opt_g.zero_grad()
    g_loss = bce(D(fake), ones)
    g_loss.backward()
    opt_g.step()
    print(step, d_loss.item(), g_loss.item())
