# source: https://pytroubles.com/ru/posts/id2658-gan-v-pytorch-ispravljaem-oshibku-backward-cherez-detach
# scenario: gan_multiloss
# cause: shared_subgraph_multiple_backward
# root: cell 2 line 4
# expert: the discriminator step feeds the last fake_batch of the generator loop, whose generator graph was already freed by g_loss.backward(); pass fake_batch.detach() to the discriminator
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
dev = 'cpu'
latent_dim = 16
netG = nn.Sequential(nn.Linear(latent_dim, 64), nn.ReLU(), nn.Linear(64, 784), nn.Tanh()).to(dev)
netD = nn.Sequential(nn.Linear(784, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1), nn.Sigmoid()).to(dev)
bce_loss = nn.BCELoss()
optG = torch.optim.Adam(netG.parameters(), lr=2e-4)
optD = torch.optim.Adam(netD.parameters(), lr=2e-4)
g_update_factor = 3   # n generator updates ...
d_update_factor = 1   # ... per m discriminator updates
data_stream = [(torch.rand(16, 1, 28, 28) * 2 - 1, torch.zeros(16)) for _ in range(2)]
# %%
real_batch, _ = data_stream[0]
real_batch = real_batch.view(-1, 784).to(dev)
bsz = real_batch.shape[0]
# Generator updates (n times)
for _ in range(g_update_factor):
    z = torch.randn(bsz, latent_dim).to(dev)
    fake_batch = netG(z)
    gen_scores = netD(fake_batch).view(-1)
    g_loss = bce_loss(gen_scores, torch.ones_like(gen_scores))
    g_loss.backward()
    optG.step()
    netG.zero_grad()
print('g_loss', g_loss.item())
# %%
# Discriminator updates (m times)
for _ in range(d_update_factor):
    real_scores = netD(real_batch).view(-1)
    fake_scores = netD(fake_batch).view(-1)
    d_loss = bce_loss(real_scores, torch.ones_like(real_scores)) + \
             bce_loss(fake_scores, torch.zeros_like(fake_scores))
    d_loss.backward()
    optD.step()
    netD.zero_grad()
print('d_loss', d_loss.item())
