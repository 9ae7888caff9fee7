# cause: shared_subgraph_multiple_backward
# line: 18
# why: the discriminator step backpropagates through the non-detached fake samples, freeing the generator graph that generator_step backpropagates through again.
import torch
import torch.nn as nn

torch.manual_seed(0)

G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()


def discriminator_step(real, fake):
    opt_d.zero_grad()
    loss_d = bce(D(real), torch.ones(real.size(0), 1)) + bce(D(fake), torch.zeros(fake.size(0), 1))
    loss_d.backward()
    opt_d.step()
    return loss_d.item()


def generator_step(fake):
    opt_g.zero_grad()
    loss_g = bce(D(fake), torch.ones(fake.size(0), 1))
    loss_g.backward()
    opt_g.step()
    return loss_g.item()


for it in range(3):
    real = 0.5 * torch.randn(16, 2) + 1.0
    fake = G(torch.randn(16, 4))
    d_loss = discriminator_step(real, fake)
    g_loss = generator_step(fake)
