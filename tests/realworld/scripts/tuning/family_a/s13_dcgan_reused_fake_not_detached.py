# source: https://github.com/pytorch/examples/pull/69
# style: gan
# cause: shared_subgraph_multiple_backward
# line: 63
# expert: The generator step reuses self.fake from the discriminator step (to avoid a second netG forward), but the D step feeds it to netD without .detach(), so errD_fake.backward() frees netG's part of the graph and errG.backward() has to go through it again; the PR feeds netD(fake.detach()) in the D step and keeps the un-detached fake for the G step.
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)

nz, ngf, ndf, nc = 8, 8, 8, 1


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, 1, 4, 1, 0, bias=False),
            nn.Sigmoid(),
        )

    def forward(self, input):
        return self.main(input).view(-1, 1).squeeze(1)


class DCGANTrainer:
    def __init__(self, netG, netD):
        self.netG, self.netD = netG, netD
        self.criterion = nn.BCELoss()
        self.optimizerD = optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.optimizerG = optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.real_label, self.fake_label = 1.0, 0.0

    def update_D(self, real_cpu):
        self.netD.zero_grad()
        batch_size = real_cpu.size(0)
        label = torch.full((batch_size,), self.real_label)
        output = self.netD(real_cpu)
        errD_real = self.criterion(output, label)
        errD_real.backward()

        noise = torch.randn(batch_size, nz, 1, 1)
        self.fake = self.netG(noise)
        label.fill_(self.fake_label)
        output = self.netD(self.fake)
        errD_fake = self.criterion(output, label)
        errD_fake.backward()
        self.optimizerD.step()
        return (errD_real + errD_fake).item()

    def update_G(self):
        # (2) Update G network: maximize log(D(G(z))), reusing the fake batch of update_D
        self.netG.zero_grad()
        label = torch.full((self.fake.size(0),), self.real_label)
        output = self.netD(self.fake)
        errG = self.criterion(output, label)
        errG.backward()
        self.optimizerG.step()
        return errG.item()


trainer = DCGANTrainer(Generator(), Discriminator())
dataloader = [(torch.rand(4, nc, 8, 8) * 2 - 1, None) for _ in range(3)]
for epoch in range(1):
    for i, (data, _) in enumerate(dataloader):
        errD = trainer.update_D(data)
        errG = trainer.update_G()
        print('[%d][%d] Loss_D: %.4f Loss_G: %.4f' % (epoch, i, errD, errG))
