# source: https://github.com/pytorch/pytorch/issues/46638
# style: gan
# cause: inplace_modified_saved_tensor
# line: 68
# expert: optimizer_D.step() updates the discriminator weights in place (the [1, 32, 3, 3] conv weight) that the generator loss saved; finish the generator backward/step before stepping D, or recompute discriminator(gen_imgs) after the D step
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)
np.random.seed(0)
Tensor = torch.FloatTensor
adversarial_loss = torch.nn.MSELoss()


class Generator(nn.Module):
    def __init__(self, latent_dim=16):
        super(Generator, self).__init__()
        self.model = nn.Sequential(nn.Linear(latent_dim, 16 * 16), nn.Tanh())

    def forward(self, z):
        return self.model(z).view(-1, 1, 16, 16)


class Discriminator(nn.Module):

    def __init__(self, in_channels=1):
        super(Discriminator, self).__init__()

        def discrimintor_block(in_features, out_features, normalize=True):
            """Discriminator block"""
            layers = [nn.Conv2d(in_features, out_features, 3, stride=2, padding=1)]
            if normalize:
                layers.append(nn.BatchNorm2d(out_features, 0.8))
            layers.append(nn.LeakyReLU(0.2, inplace=True))
            return layers

        self.model = nn.Sequential(
            *discrimintor_block(in_channels, 32, normalize=False),
            *discrimintor_block(32, 64),
            *discrimintor_block(64, 128),
            nn.Conv2d(128, 1, kernel_size=2)
        )

    def forward(self, img):
        return self.model(img)


generator, discriminator = Generator(), Discriminator()
optimizer_G = torch.optim.Adam(generator.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4, betas=(0.5, 0.999))
dataloader = [torch.rand(4, 1, 16, 16) * 2 - 1 for _ in range(3)]

for i, imgs in enumerate(dataloader):
    valid = Variable(Tensor(imgs.size(0), 1, 1, 1).fill_(1.0), requires_grad=False)
    fake = Variable(Tensor(imgs.size(0), 1, 1, 1).fill_(0.0), requires_grad=False)
    real_imgs = Variable(imgs.type(Tensor))

    optimizer_G.zero_grad()
    z = Variable(Tensor(np.random.normal(0, 1, (imgs.shape[0], 16))))
    gen_imgs = generator(z)
    g_loss = adversarial_loss(discriminator(gen_imgs), valid)
    g_loss.backward()
    optimizer_G.step()

    optimizer_D.zero_grad()
    real_loss = adversarial_loss(discriminator(real_imgs), valid)
    fake_loss = adversarial_loss(discriminator(gen_imgs.detach()), fake)
    d_loss = (real_loss + fake_loss) / 2
    d_loss.backward()
    optimizer_D.step()
    print(i, d_loss.item(), g_loss.item())
