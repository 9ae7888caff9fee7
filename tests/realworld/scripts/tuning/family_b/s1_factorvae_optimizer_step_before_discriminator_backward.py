# source: https://github.com/YannDubs/disentangling-vae/issues/77
# style: gan
# cause: inplace_modified_saved_tensor
# line: 60
# expert: optimizer.step() updates the VAE encoder in place right after vae_loss.backward(retain_graph=True), but d_tc_loss still backpropagates through d_z = discriminator(latent_sample1), whose graph saved those encoder weights; do both optimizer steps at the end, after d_tc_loss.backward() ("Update at the end (since pytorch 1.5. complains if update before)")
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def _permute_dims(latent_sample):
    perm = torch.zeros_like(latent_sample)
    batch_size, dim_z = perm.size()
    for z in range(dim_z):
        pi = torch.randperm(batch_size)
        perm[:, z] = latent_sample[pi, z]
    return perm


class VAE(nn.Module):
    def __init__(self, d=16, latent_dim=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 2 * latent_dim))
        self.decoder = nn.Sequential(nn.Linear(latent_dim, 32), nn.ReLU(), nn.Linear(32, d))

    def reparameterize(self, mean, logvar):
        return mean + torch.exp(0.5 * logvar) * torch.randn_like(mean)

    def forward(self, x):
        mean, logvar = self.encoder(x).chunk(2, -1)
        latent_sample = self.reparameterize(mean, logvar)
        return self.decoder(latent_sample), (mean, logvar), latent_sample

    def sample_latent(self, x):
        mean, logvar = self.encoder(x).chunk(2, -1)
        return self.reparameterize(mean, logvar)


class FactorKLoss:
    def __init__(self, gamma=10.):
        self.gamma = gamma
        self.discriminator = nn.Sequential(nn.Linear(4, 32), nn.LeakyReLU(0.2), nn.Linear(32, 2))
        self.optimizer_d = torch.optim.Adam(self.discriminator.parameters(), lr=5e-5, betas=(0.5, 0.9))

    def __call__(self, data, model, optimizer):
        half_batch_size = data.size(0) // 2
        data1, data2 = data.split(half_batch_size)
        recon_batch, latent_dist, latent_sample1 = model(data1)
        rec_loss = F.mse_loss(recon_batch, data1, reduction='sum') / half_batch_size
        mean, logvar = latent_dist
        kl_loss = (0.5 * (-1 - logvar + mean.pow(2) + logvar.exp())).sum(1).mean()
        d_z = self.discriminator(latent_sample1)
        tc_loss = (d_z[:, 0] - d_z[:, 1]).mean()
        vae_loss = rec_loss + kl_loss + self.gamma * tc_loss
        # Compute VAE gradients
        optimizer.zero_grad()
        vae_loss.backward(retain_graph=True)
        optimizer.step()
        # Discriminator Loss
        latent_sample2 = model.sample_latent(data2)
        z_perm = _permute_dims(latent_sample2).detach()
        d_z_perm = self.discriminator(z_perm)
        ones = torch.ones(half_batch_size, dtype=torch.long)
        zeros = torch.zeros_like(ones)
        d_tc_loss = 0.5 * (F.cross_entropy(d_z, zeros) + F.cross_entropy(d_z_perm, ones))
        self.optimizer_d.zero_grad()
        d_tc_loss.backward()
        self.optimizer_d.step()
        return vae_loss


model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
loss_f = FactorKLoss()
for step in range(3):
    print(step, loss_f(torch.randn(8, 16), model, optimizer).item())
