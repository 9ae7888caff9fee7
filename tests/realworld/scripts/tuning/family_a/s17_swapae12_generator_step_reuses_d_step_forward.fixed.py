# source: variant of https://github.com/rosinality/swapping-autoencoder-pytorch/issues/12
# style: gan
# cause: shared_subgraph_multiple_backward
# line: 72
# expert: as the maintainer says, reusing the first forward pass for the generator step needs d_loss.backward(retain_graph=True); otherwise run encoder/generator again before the generator step
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim

torch.manual_seed(0)


def requires_grad(model, flag=True):
    for p in model.parameters():
        p.requires_grad = flag


def d_logistic_loss(real_pred, fake_pred):
    return F.softplus(-real_pred).mean() + F.softplus(fake_pred).mean()


def g_nonsaturating_loss(fake_pred):
    return F.softplus(-fake_pred).mean()


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.structure = nn.Conv2d(3, 4, 3, padding=1)
        self.texture = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.AdaptiveAvgPool2d(1), nn.Flatten())

    def forward(self, x):
        return self.structure(x), self.texture(x)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.mod = nn.Linear(8, 4)
        self.out = nn.Conv2d(4, 3, 3, padding=1)

    def forward(self, structure, texture):
        return torch.tanh(self.out(structure * self.mod(texture)[:, :, None, None]))


encoder, generator = Encoder(), Generator()
discriminator = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.LeakyReLU(0.2), nn.Flatten(), nn.LazyLinear(1))
discriminator(torch.zeros(1, 3, 16, 16))
g_optim = optim.Adam(list(encoder.parameters()) + list(generator.parameters()), lr=2e-3, betas=(0.0, 0.99))
d_optim = optim.Adam(discriminator.parameters(), lr=2e-3, betas=(0.0, 0.99))

for i in range(3):
    real_img = torch.rand(4, 3, 16, 16) * 2 - 1
    real_img1, real_img2 = real_img.chunk(2, dim=0)

    requires_grad(encoder, True)
    requires_grad(generator, True)
    requires_grad(discriminator, True)

    structure1, texture1 = encoder(real_img1)
    _, texture2 = encoder(real_img2)

    fake_img1 = generator(structure1, texture1)
    fake_img2 = generator(structure1, texture2)

    fake_pred = discriminator(torch.cat((fake_img1, fake_img2), 0))
    real_pred = discriminator(real_img)
    d_loss = d_logistic_loss(real_pred, fake_pred)

    d_optim.zero_grad()
    d_loss.backward(retain_graph=True)
    d_optim.step()

    # generator step reuses fake_img1 / fake_img2 from the forward above
    requires_grad(discriminator, False)
    recon_loss = F.l1_loss(fake_img1, real_img1)
    fake_pred = discriminator(torch.cat((fake_img1, fake_img2), 0))
    g_loss = g_nonsaturating_loss(fake_pred) + recon_loss

    g_optim.zero_grad()
    g_loss.backward()
    g_optim.step()
    print(i, d_loss.item(), g_loss.item())
