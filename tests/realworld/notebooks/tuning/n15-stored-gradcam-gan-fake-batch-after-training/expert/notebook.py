# %%
import numpy as np
import torch
import torch.nn as nn
torch.manual_seed(0)
nz, ngf, ndf, nc = 8, 8, 8, 1
# %%
class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False), nn.Tanh())

    def forward(self, x):
        return self.main(x)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False), nn.Flatten(), nn.Sigmoid())

    def forward(self, x):
        return self.main(x)


netG, netD = Generator(), Discriminator()
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
real_images = torch.rand(8, nc, 16, 16) * 2 - 1  # stand-in for the training images
# %%
for step in range(2):
    real = real_images[step * 4:(step + 1) * 4]
    b_size = real.size(0)
    # (1) Update D network
    netD.zero_grad()
    errD_real = criterion(netD(real), torch.ones(b_size, 1))
    z_noise = torch.randn(b_size, nz, 1, 1)
    x_fake = netG(z_noise)
    errD_fake = criterion(netD(x_fake.detach()), torch.zeros(b_size, 1))
    (errD_real + errD_fake).backward()
    optimizerD.step()
    # (2) Update G network
    netG.zero_grad()
    errG = criterion(netD(x_fake), torch.ones(b_size, 1))
    errG.backward()
    optimizerG.step()
    print(f'step {step}: D {(errD_real + errD_fake).item():.3f} G {errG.item():.3f}')
# %%
from pytorch_grad_cam_stub import GradCAM, ClassifierOutputTarget

target_layers = [netD.main[3]]
cam = GradCAM(model=netD, target_layers=target_layers, use_cuda=False)
# %%
# class activation map of the discriminator for each generated image
cams = []
for i in range(x_fake.size(0)):
    grayscale_cam = cam(input_tensor=x_fake[i:i + 1].detach(), targets=[ClassifierOutputTarget(0)])
    cams.append(grayscale_cam[0])
print(np.stack(cams).shape)
