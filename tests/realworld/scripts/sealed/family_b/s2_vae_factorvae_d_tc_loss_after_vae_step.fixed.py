# source: https://github.com/1Konny/FactorVAE/issues/15
# style: vae
# cause: inplace_modified_saved_tensor
# line: 77
# expert: optim_VAE.step() changes the encoder weights that D_z's graph still needs; compute the discriminator's D_z term on a detached code (D_z = self.D(z.detach())) so D_tc_loss only reaches the discriminator
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def recon_loss(x, x_recon):
    return F.binary_cross_entropy_with_logits(x_recon, x, reduction='sum').div(x.size(0))


def kl_divergence(mu, logvar):
    return 0.5 * (-1 - logvar + mu.pow(2) + logvar.exp()).sum(1).mean()


def permute_dims(z):
    B, _ = z.size()
    perm_z = []
    for z_j in z.split(1, 1):
        perm = torch.randperm(B)
        perm_z.append(z_j[perm])
    return torch.cat(perm_z, 1)


class FactorVAE1(nn.Module):
    def __init__(self, z_dim=6):
        super().__init__()
        self.z_dim = z_dim
        self.encode = nn.Sequential(nn.Linear(64, 32), nn.ReLU(True), nn.Linear(32, 2 * z_dim))
        self.decode = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(True), nn.Linear(32, 64))

    def reparametrize(self, mu, logvar):
        std = logvar.mul(0.5).exp_()
        eps = std.data.new(std.size()).normal_()
        return eps.mul(std).add_(mu)

    def forward(self, x, no_dec=False):
        stats = self.encode(x)
        mu = stats[:, :self.z_dim]
        logvar = stats[:, self.z_dim:]
        z = self.reparametrize(mu, logvar)
        if no_dec:
            return z.squeeze()
        x_recon = self.decode(z)
        return x_recon, mu, logvar, z.squeeze()


class Discriminator(nn.Module):
    def __init__(self, z_dim=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 32), nn.LeakyReLU(0.2, True), nn.Linear(32, 2))

    def forward(self, z):
        return self.net(z).squeeze()


class Solver:
    def __init__(self):
        self.gamma = 6.4
        self.VAE = FactorVAE1()
        self.D = Discriminator()
        self.optim_VAE = torch.optim.Adam(self.VAE.parameters(), lr=1e-4, betas=(0.9, 0.999))
        self.optim_D = torch.optim.Adam(self.D.parameters(), lr=1e-4, betas=(0.5, 0.9))

    def train(self, data_loader):
        for x_true1, x_true2 in data_loader:
            ones = torch.ones(x_true1.size(0), dtype=torch.long)
            zeros = torch.zeros(x_true1.size(0), dtype=torch.long)

            x_recon, mu, logvar, z = self.VAE(x_true1)
            vae_recon_loss = recon_loss(x_true1, x_recon)
            vae_kld = kl_divergence(mu, logvar)
            D_z = self.D(z)
            vae_tc_loss = (D_z[:, :1] - D_z[:, 1:]).mean()
            vae_loss = vae_recon_loss + vae_kld + self.gamma * vae_tc_loss

            self.optim_VAE.zero_grad()
            vae_loss.backward(retain_graph=True)
            self.optim_VAE.step()

            z_prime = self.VAE(x_true2, no_dec=True)
            z_pperm = permute_dims(z_prime).detach()
            D_z_pperm = self.D(z_pperm)
            D_z = self.D(z.detach())
            D_tc_loss = 0.5 * (F.cross_entropy(D_z, zeros) + F.cross_entropy(D_z_pperm, ones))

            self.optim_D.zero_grad()
            D_tc_loss.backward()
            self.optim_D.step()
        return vae_loss.item(), D_tc_loss.item()


data_loader = [(torch.rand(8, 64).round(), torch.rand(8, 64).round()) for _ in range(3)]
print(Solver().train(data_loader))
