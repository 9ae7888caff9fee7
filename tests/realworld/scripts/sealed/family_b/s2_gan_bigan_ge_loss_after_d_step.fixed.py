# source: https://github.com/mperezcarrasco/PyTorch-BiGAN/issues/1
# style: gan
# cause: inplace_modified_saved_tensor
# line: 86
# expert: after optimizer_d.step() run the generator, encoder and discriminator forward again for the G/E update (fresh x_fake, z_true, out_true, out_fake) instead of reusing the outputs computed with the old discriminator weights
import argparse
import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, z_dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.ConvTranspose2d(z_dim, 16, 4, 1, 0), nn.LeakyReLU(0.1),
                                 nn.ConvTranspose2d(16, 1, 4, 2, 1), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Encoder(nn.Module):
    def __init__(self, z_dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1), nn.LeakyReLU(0.1), nn.Conv2d(16, z_dim, 4, 1, 0))

    def forward(self, x):
        return self.net(x)


class Discriminator(nn.Module):
    def __init__(self, z_dim=8):
        super().__init__()
        self.infer_x = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1), nn.LeakyReLU(0.1), nn.Conv2d(16, 16, 4, 1, 0))
        self.infer_joint = nn.Sequential(nn.Conv2d(16 + z_dim, 32, 1), nn.LeakyReLU(0.1), nn.Conv2d(32, 1, 1))

    def forward(self, x, z):
        return torch.sigmoid(self.infer_joint(torch.cat([self.infer_x(x), z], dim=1)))


class TrainerBiGAN:
    def __init__(self, args, data):
        self.args = args
        self.train_loader = data
        self.device = 'cpu'
        self.G, self.E, self.D = Generator(args.latent_dim), Encoder(args.latent_dim), Discriminator(args.latent_dim)

    def train(self):
        optimizer_ge = torch.optim.Adam(list(self.G.parameters()) + list(self.E.parameters()), lr=self.args.lr_adam)
        optimizer_d = torch.optim.Adam(self.D.parameters(), lr=self.args.lr_adam)
        criterion = nn.BCELoss()
        for epoch in range(self.args.num_epochs):
            for x, _ in self.train_loader:
                # Defining labels
                y_true = Variable(torch.ones((x.size(0), 1, 1, 1)).to(self.device))
                y_fake = Variable(torch.zeros((x.size(0), 1, 1, 1)).to(self.device))

                # Noise for improving training.
                noise1 = Variable(torch.Tensor(x.size()).normal_(0, 0.1), requires_grad=False).to(self.device)
                noise2 = Variable(torch.Tensor(x.size()).normal_(0, 0.1), requires_grad=False).to(self.device)

                # Cleaning gradients.
                optimizer_d.zero_grad()
                optimizer_ge.zero_grad()

                # Generator:
                z_fake = Variable(torch.randn((x.size(0), self.args.latent_dim, 1, 1)).to(self.device), requires_grad=False)
                x_fake = self.G(z_fake)

                # Encoder:
                x_true = x.float().to(self.device)
                z_true = self.E(x_true)

                # Discriminator
                out_true = self.D(x_true + noise1, z_true)
                out_fake = self.D(x_fake + noise2, z_fake)

                # Losses
                loss_d = criterion(out_true, y_true) + criterion(out_fake, y_fake)
                loss_ge = criterion(out_fake, y_true) + criterion(out_true, y_fake)

                # Computing gradients and backpropagate.
                loss_d.backward()
                optimizer_d.step()

                # Cleaning gradients.
                optimizer_ge.zero_grad()
                # Generator, Encoder and Discriminator again with the updated D
                z_fake = Variable(torch.randn((x.size(0), self.args.latent_dim, 1, 1)).to(self.device), requires_grad=False)
                x_fake = self.G(z_fake)
                z_true = self.E(x_true)
                out_true = self.D(x_true + noise1, z_true)
                out_fake = self.D(x_fake + noise2, z_fake)
                loss_ge = criterion(out_fake, y_true) + criterion(out_true, y_fake)
                loss_ge.backward()
                optimizer_ge.step()
            print(epoch, loss_d.item(), loss_ge.item())


args = argparse.Namespace(num_epochs=2, lr_adam=1e-4, latent_dim=8)
data = [(torch.rand(4, 1, 8, 8) * 2 - 1, torch.zeros(4)) for _ in range(2)]
TrainerBiGAN(args, data).train()
