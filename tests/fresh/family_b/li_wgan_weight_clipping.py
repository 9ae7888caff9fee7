# cause: leaf_inplace
# line: 18
# why: WGAN weight clipping calls clamp_() on the critic's parameters (leaves requiring grad) without torch.no_grad().
import torch
import torch.nn as nn

torch.manual_seed(0)
critic = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.RMSprop(critic.parameters(), lr=5e-5)
for step in range(3):
    real = torch.randn(8, 2) + 1
    fake = torch.randn(8, 2)
    loss = critic(fake).mean() - critic(real).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    for p in critic.parameters():
        p.clamp_(-0.01, 0.01)
