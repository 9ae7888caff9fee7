# source: https://github.com/ry85/VAE-GAN/issues/1
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class VaeGan(nn.Module):
    def __init__(self, z_size=4, d=16):
        super().__init__()
        self.z_size = z_size
        self.encoder = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, 2 * z_size))
        self.decoder = nn.Sequential(nn.Linear(z_size, 16), nn.ReLU(), nn.Linear(16, d), nn.Tanh())
        self.discriminator = nn.Sequential(nn.Linear(d, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))

    def forward(self, x):
        mus, log_variances = self.encoder(x).chunk(2, 1)
        variances = torch.exp(log_variances * 0.5)
        z = torch.randn(len(x), self.z_size) * variances + mus
        x_tilde = self.decoder(z)
        z_p = torch.randn(len(x), self.z_size)
        x_p = self.decoder(z_p)
        disc_layer = self.discriminator(torch.cat((x, x_tilde, x_p), 0))
        return x_tilde, disc_layer, mus, log_variances


net = VaeGan()
optimizer_encoder = torch.optim.RMSprop(net.encoder.parameters(), lr=3e-4)
optimizer_decoder = torch.optim.RMSprop(net.decoder.parameters(), lr=3e-4)
optimizer_discriminator = torch.optim.RMSprop(net.discriminator.parameters(), lr=3e-4)
train_dec, train_dis = True, True
for i in range(3):
    x = torch.randn(4, 16)
    x_tilde, disc_layer, mus, log_variances = net(x)
    disc_class = torch.sigmoid(disc_layer)
    n = len(x)
    nle = F.mse_loss(x_tilde, x)
    kl = (-0.5 * torch.sum(1 + log_variances - mus.pow(2) - log_variances.exp(), 1)).mean()
    bce_dis_original = -torch.log(disc_class[:n] + 1e-3).mean()
    bce_dis_sampled = -torch.log(1 - disc_class[-n:] + 1e-3).mean()
    bce_dis_recon = -torch.log(1 - disc_class[n:2 * n] + 1e-3).mean()
    loss_encoder = kl + nle
    loss_discriminator = bce_dis_original + bce_dis_sampled + bce_dis_recon
    loss_decoder = 1e-2 * nle - (1.0 - 1e-2) * loss_discriminator

    net.zero_grad()
    # encoder
    loss_encoder.backward(retain_graph=True)
    net.decoder.zero_grad()
    net.discriminator.zero_grad()
    if train_dec and train_dis:
        loss_decoder.backward(retain_graph=True)
        net.discriminator.zero_grad()
        loss_discriminator.backward()
        optimizer_encoder.step()
        optimizer_decoder.step()
        optimizer_discriminator.step()
    print(i, loss_encoder.item(), loss_decoder.item(), loss_discriminator.item())
