import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
real_data = torch.randn(200, 2) * 0.3 + torch.tensor([1.0, -1.0])
losses = {"d": [], "g": []}
for step in range(15):
    real = real_data[torch.randint(0, 200, (32,))]
    fake = G(torch.randn(32, 3))
    # discriminator: fake is detached so G's graph stays intact for the G step
    opt_d.zero_grad()
    d_loss = (F.binary_cross_entropy_with_logits(D(real), torch.ones(32, 1))
              + F.binary_cross_entropy_with_logits(D(fake.detach()), torch.zeros(32, 1)))
    d_loss.backward()
    opt_d.step()
    # generator
    opt_g.zero_grad()
    g_loss = F.binary_cross_entropy_with_logits(D(fake), torch.ones(32, 1))
    g_loss.backward()
    opt_g.step()
    losses["d"].append(d_loss.item())
    losses["g"].append(g_loss.item())
print({k: round(v[-1], 3) for k, v in losses.items()})
