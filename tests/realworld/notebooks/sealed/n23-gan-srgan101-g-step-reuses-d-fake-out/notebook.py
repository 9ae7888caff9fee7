# source: https://github.com/leftthomas/SRGAN/issues/101 (train.py's iteration split into notebook cells, "(1) Update D network" and "(2) Update G network", as it ran before the two lines "added to prevent runetime error in Google Colab" that recompute fake_img and fake_out; a tiny Generator/Discriminator and a GeneratorLoss without the VGG perception term, random LR/HR patches instead of the VOC loader, CPU)
# scenario: gan_multiloss
# cause: inplace_modified_saved_tensor
# root: cell 1 line 13
# expert: the G cell builds g_loss from the fake_out that the D cell computed with netD before optimizerD.step() updated netD's weights in place, so g_loss.backward() needs weight versions that no longer exist. The issue asks why train.py computes fake_img and fake_out again after the D update; the answer (and the repository's train.py) is that the generator step must run the discriminator anew after optimizerD.step(): recompute fake_img = netG(z) and fake_out = netD(fake_img).mean() before generator_criterion
# %%
import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, scale_factor):
        super(Generator, self).__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 16, kernel_size=3, padding=1), nn.PReLU())
        self.upsample = nn.Sequential(nn.Conv2d(16, 3 * scale_factor ** 2, kernel_size=3, padding=1),
                                      nn.PixelShuffle(scale_factor))

    def forward(self, x):
        return (torch.tanh(self.upsample(self.block1(x))) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1), nn.Conv2d(16, 1, kernel_size=1))

    def forward(self, x):
        batch_size = x.size(0)
        return torch.sigmoid(self.net(x).view(batch_size))


class TVLoss(nn.Module):
    def forward(self, x):
        h_tv = torch.pow((x[:, :, 1:, :] - x[:, :, :-1, :]), 2).sum()
        w_tv = torch.pow((x[:, :, :, 1:] - x[:, :, :, :-1]), 2).sum()
        return (h_tv + w_tv) / x.size(0)


class GeneratorLoss(nn.Module):
    # loss.py without the VGG16 perception term
    def __init__(self):
        super(GeneratorLoss, self).__init__()
        self.mse_loss = nn.MSELoss()
        self.tv_loss = TVLoss()

    def forward(self, out_labels, out_images, target_images):
        # Adversarial Loss
        adversarial_loss = torch.mean(1 - out_labels)
        # Image Loss
        image_loss = self.mse_loss(out_images, target_images)
        # TV Loss
        tv_loss = self.tv_loss(out_images)
        return image_loss + 0.001 * adversarial_loss + 2e-8 * tv_loss


UPSCALE_FACTOR = 2
netG = Generator(UPSCALE_FACTOR)
netD = Discriminator()
generator_criterion = GeneratorLoss()
optimizerG = torch.optim.Adam(netG.parameters())
optimizerD = torch.optim.Adam(netD.parameters())

data = torch.rand(4, 3, 8, 8)      # LR crops
target = torch.rand(4, 3, 16, 16)  # HR crops
# %%
############################
# (1) Update D network: maximize D(x)-1-D(G(z))
###########################
real_img = Variable(target)
z = Variable(data)
fake_img = netG(z)

netD.zero_grad()
real_out = netD(real_img).mean()
fake_out = netD(fake_img).mean()
d_loss = 1 - real_out + fake_out
d_loss.backward(retain_graph=True)
optimizerD.step()
print('d_loss', d_loss.item())
# %%
############################
# (2) Update G network: minimize 1-D(G(z)) + Perception Loss + Image Loss + TV Loss
###########################
netG.zero_grad()
g_loss = generator_criterion(fake_out, fake_img, real_img)
g_loss.backward()

optimizerG.step()
print('g_loss', g_loss.item())
