# source: https://github.com/aladdinpersson/Machine-Learning-Collection/pull/155
# style: gan
# cause: shared_subgraph_multiple_backward
# line: 47
# expert: lossD is computed on disc(fake) without detach, so lossD.backward() frees the generator graph that the generator step (disc(fake) again) backpropagates through; the PR adds lossD.backward(retain_graph=True), the cleaner fix is disc(fake.detach()) for the discriminator loss
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class Discriminator(nn.Module):
    def __init__(self, in_features):
        super().__init__()
        self.disc = nn.Sequential(nn.Linear(in_features, 32), nn.LeakyReLU(0.01), nn.Linear(32, 1), nn.Sigmoid())

    def forward(self, x):
        return self.disc(x)


class Generator(nn.Module):
    def __init__(self, z_dim, img_dim):
        super().__init__()
        self.gen = nn.Sequential(nn.Linear(z_dim, 32), nn.LeakyReLU(0.01), nn.Linear(32, img_dim), nn.Tanh())

    def forward(self, x):
        return self.gen(x)


lr, z_dim, image_dim, batch_size, num_epochs = 3e-4, 8, 16, 4, 2
disc, gen = Discriminator(image_dim), Generator(z_dim, image_dim)
opt_disc = optim.Adam(disc.parameters(), lr=lr)
opt_gen = optim.Adam(gen.parameters(), lr=lr)
criterion = nn.BCELoss()
loader = [(torch.rand(batch_size, 1, 4, 4) * 2 - 1, torch.zeros(batch_size)) for _ in range(3)]

for epoch in range(num_epochs):
    for batch_idx, (real, _) in enumerate(loader):
        real = real.view(-1, 16)
        batch_size = real.shape[0]
        ### Train Discriminator: max log(D(x)) + log(1 - D(G(z)))
        noise = torch.randn(batch_size, z_dim)
        fake = gen(noise)
        disc_real = disc(real).view(-1)
        lossD_real = criterion(disc_real, torch.ones_like(disc_real))
        disc_fake = disc(fake).view(-1)
        lossD_fake = criterion(disc_fake, torch.zeros_like(disc_fake))
        lossD = (lossD_real + lossD_fake) / 2
        disc.zero_grad()
        lossD.backward()
        opt_disc.step()
        ### Train Generator: min log(1 - D(G(z))) <-> max log(D(G(z))
        output = disc(fake).view(-1)
        lossG = criterion(output, torch.ones_like(output))
        gen.zero_grad()
        lossG.backward()
        opt_gen.step()
    print(epoch, lossD.item(), lossG.item())
