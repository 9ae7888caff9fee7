# source: https://github.com/tamarott/SinGAN/issues/148
# style: gan
# cause: inplace_modified_saved_tensor
# line: 75
# expert: regenerate the fake image with the current generator at the start of every G step (fake = netG(noise.detach(), prev)) instead of reusing the fake produced before the first optimizerG.step()
import argparse
import torch
import torch.nn as nn

torch.manual_seed(0)


class ConvBlock(nn.Sequential):
    def __init__(self, in_channel, out_channel):
        super().__init__()
        self.add_module('conv', nn.Conv2d(in_channel, out_channel, 3, padding=1))
        self.add_module('norm', nn.BatchNorm2d(out_channel))
        self.add_module('LeakyRelu', nn.LeakyReLU(0.2))


class GeneratorConcatSkip2CleanAdd(nn.Module):
    def __init__(self, nfc=8):
        super().__init__()
        self.head = ConvBlock(3, nfc)
        self.tail = nn.Sequential(nn.Conv2d(nfc, 3, 3, padding=1), nn.Tanh())

    def forward(self, x, y):
        return self.tail(self.head(x)) + y


class WDiscriminator(nn.Module):
    def __init__(self, nfc=8):
        super().__init__()
        self.head = ConvBlock(3, nfc)
        self.tail = nn.Conv2d(nfc, 1, 3, padding=1)

    def forward(self, x):
        return self.tail(self.head(x))


opt = argparse.Namespace(niter=2, Dsteps=3, Gsteps=3, alpha=10, noise_amp=0.1)
real = torch.rand(1, 3, 16, 16) * 2 - 1
netD, netG = WDiscriminator(), GeneratorConcatSkip2CleanAdd()
optimizerD = torch.optim.Adam(netD.parameters(), lr=5e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=5e-4, betas=(0.5, 0.999))
z_opt = torch.randn(1, 3, 16, 16)
prev = torch.zeros(1, 3, 16, 16)
z_prev = torch.zeros(1, 3, 16, 16)

for epoch in range(opt.niter):
    noise = opt.noise_amp * torch.randn(1, 3, 16, 16) + prev
    # (1) Update D network: maximize D(x) + D(G(z))
    for j in range(opt.Dsteps):
        netD.zero_grad()
        output = netD(real)
        errD_real = -output.mean()
        errD_real.backward(retain_graph=True)
        fake = netG(noise.detach(), prev)
        output = netD(fake.detach())
        errD_fake = output.mean()
        errD_fake.backward(retain_graph=True)
        optimizerD.step()

    # (2) Update G network: maximize D(G(z))
    for j in range(opt.Gsteps):
        netG.zero_grad()
        output = netD(fake)
        errG = -output.mean()
        errG.backward(retain_graph=True)
        if opt.alpha != 0:
            loss = nn.MSELoss()
            Z_opt = opt.noise_amp * z_opt + z_prev
            rec_loss = opt.alpha * loss(netG(Z_opt.detach(), z_prev), real)
            rec_loss.backward(retain_graph=True)
        optimizerG.step()
    print(epoch, errD_real.item(), errG.item())
