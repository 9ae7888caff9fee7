# source: https://pytroubles.com/ru/posts/id2658-gan-v-pytorch-ispravljaem-oshibku-backward-cherez-detach
# style: gan
# cause: shared_subgraph_multiple_backward
# line: 39
# expert: the discriminator step feeds fake_batch (the last generator output, whose graph g_loss.backward() already freed) into netD without detach; use netD(fake_batch.detach()) in the discriminator update
import torch
import torch.nn as nn

torch.manual_seed(0)
dev = 'cpu'
latent_dim = 8
total_epochs = 2
g_update_factor = 3   # n generator updates ...
d_update_factor = 1   # ... per m discriminator updates

netG = nn.Sequential(nn.Linear(latent_dim, 32), nn.ReLU(), nn.Linear(32, 16), nn.Tanh()).to(dev)
netD = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid()).to(dev)
bce_loss = nn.BCELoss()
optG = torch.optim.Adam(netG.parameters(), lr=2e-4)
optD = torch.optim.Adam(netD.parameters(), lr=2e-4)
data_stream = [(torch.rand(4, 1, 4, 4), torch.zeros(4)) for _ in range(3)]

for epoch in range(total_epochs):
    for batch_id, (real_batch, _) in enumerate(data_stream):
        real_batch = real_batch.view(-1, 16).to(dev)
        bsz = real_batch.shape[0]
        # generator updates (n times)
        for _ in range(g_update_factor):
            z = torch.randn(bsz, latent_dim).to(dev)
            fake_batch = netG(z)
            gen_scores = netD(fake_batch).view(-1)
            g_loss = bce_loss(gen_scores, torch.ones_like(gen_scores))
            g_loss.backward()
            optG.step()
            netG.zero_grad()
        # discriminator updates (m times)
        for _ in range(d_update_factor):
            real_scores = netD(real_batch).view(-1)
            fake_scores = netD(fake_batch).view(-1)
            d_loss = bce_loss(real_scores, torch.ones_like(real_scores)) + bce_loss(fake_scores, torch.zeros_like(fake_scores))
            d_loss.backward()
            optD.step()
            netD.zero_grad()
    print(epoch, g_loss.item(), d_loss.item())
