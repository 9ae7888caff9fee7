# source: https://github.com/heykeetae/Self-Attention-GAN/issues/48
# scenario: clean
# order: 0 1 2 3 3
# expert: nothing to fix for autograd: the discriminator step uses fake_images without detach (the issue asks for it, to avoid useless generator gradients), but the generator step draws new noise and recomputes fake_images, so no graph is backpropagated twice, and re-running the training cell builds fresh graphs
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
# %%
z_dim, batch_size, imsize = 4, 4, 8
G = nn.Sequential(nn.Linear(z_dim, imsize * imsize), nn.Tanh())
D = nn.Sequential(nn.Linear(imsize * imsize, 16), nn.LeakyReLU(0.1), nn.Linear(16, 1))
g_optimizer = torch.optim.Adam(G.parameters(), 1e-4, [0.0, 0.9])
d_optimizer = torch.optim.Adam(D.parameters(), 4e-4, [0.0, 0.9])
# %%
data_iter = [torch.randn(batch_size, imsize * imsize) for _ in range(3)]
# %%
for real_images in data_iter:
    # ================== Train D ================== #
    D.train()
    G.train()
    d_out_real = D(real_images)
    d_loss_real = torch.nn.ReLU()(1.0 - d_out_real).mean()

    z = torch.randn(real_images.size(0), z_dim)
    fake_images = G(z)
    d_out_fake = D(fake_images)
    d_loss_fake = torch.nn.ReLU()(1.0 + d_out_fake).mean()

    d_loss = d_loss_real + d_loss_fake
    d_optimizer.zero_grad()
    g_optimizer.zero_grad()
    d_loss.backward()
    d_optimizer.step()

    # ================== Train G ================== #
    z = torch.randn(real_images.size(0), z_dim)
    fake_images = G(z)
    g_out_fake = D(fake_images)
    g_loss_fake = - g_out_fake.mean()

    d_optimizer.zero_grad()
    g_optimizer.zero_grad()
    g_loss_fake.backward()
    g_optimizer.step()
print(d_loss.item(), g_loss_fake.item())
