# source: https://github.com/leftthomas/SRGAN/issues/89
# style: gan
# cause: inplace_modified_saved_tensor
# line: 79
# expert: optimizerD.step() has changed netD in place while g_loss still goes through the old fake_out; recompute fake_img = netG(z) and fake_out = netD(fake_img).mean() before g_loss (the two lines added to train.py)
import torch
import torch.nn as nn

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, scale_factor=2):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.PReLU())
        self.upsample = nn.Sequential(nn.Conv2d(8, 3 * scale_factor ** 2, 3, padding=1), nn.PixelShuffle(scale_factor))

    def forward(self, x):
        return (torch.tanh(self.upsample(self.block1(x))) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.LeakyReLU(0.2),
                                 nn.AdaptiveAvgPool2d(1), nn.Conv2d(8, 1, 1))

    def forward(self, x):
        return torch.sigmoid(self.net(x).view(x.size(0)))


class TVLoss(nn.Module):
    def forward(self, x):
        h_tv = torch.pow(x[:, :, 1:, :] - x[:, :, :-1, :], 2).sum()
        w_tv = torch.pow(x[:, :, :, 1:] - x[:, :, :, :-1], 2).sum()
        return (h_tv + w_tv) / x.size(0)


class GeneratorLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss_network = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()).eval()
        for param in self.loss_network.parameters():
            param.requires_grad = False
        self.mse_loss = nn.MSELoss()
        self.tv_loss = TVLoss()

    def forward(self, out_labels, out_images, target_images):
        adversarial_loss = torch.mean(1 - out_labels)
        perception_loss = self.mse_loss(self.loss_network(out_images), self.loss_network(target_images))
        image_loss = self.mse_loss(out_images, target_images)
        tv_loss = self.tv_loss(out_images)
        return image_loss + 0.001 * adversarial_loss + 0.006 * perception_loss + 2e-8 * tv_loss


netG, netD = Generator(), Discriminator()
generator_criterion = GeneratorLoss()
optimizerG = torch.optim.Adam(netG.parameters())
optimizerD = torch.optim.Adam(netD.parameters())
train_loader = [(torch.rand(2, 3, 8, 8), torch.rand(2, 3, 16, 16)) for _ in range(2)]

for epoch in range(1, 3):
    netG.train()
    netD.train()
    for data, target in train_loader:
        ############################
        # (1) Update D network: maximize D(x)-1-D(G(z))
        ###########################
        real_img = target
        z = data
        fake_img = netG(z)

        netD.zero_grad()
        real_out = netD(real_img).mean()
        fake_out = netD(fake_img).mean()
        d_loss = 1 - real_out + fake_out
        d_loss.backward(retain_graph=True)
        optimizerD.step()

        ############################
        # (2) Update G network: minimize 1-D(G(z)) + Perception Loss + Image Loss + TV Loss
        ###########################
        netG.zero_grad()
        g_loss = generator_criterion(fake_out, fake_img, real_img)
        g_loss.backward()

        fake_img = netG(z)
        fake_out = netD(fake_img).mean()

        optimizerG.step()
    print(epoch, d_loss.item(), g_loss.item())
