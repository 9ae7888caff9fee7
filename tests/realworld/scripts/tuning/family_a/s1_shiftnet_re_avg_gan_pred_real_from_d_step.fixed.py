# source: https://github.com/Zhaoyi-Yan/Shift-Net_pytorch/issues/34
import torch
import torch.nn as nn

torch.manual_seed(0)


class GANLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.BCEWithLogitsLoss()

    def __call__(self, input, target_is_real):
        return self.loss(input, torch.full_like(input, 1.0 if target_is_real else 0.0))


class ShiftNetModel:
    def __init__(self):
        self.netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())
        self.netD = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 4, 2, 1))
        self.criterionGAN = GANLoss()
        self.criterionL1 = nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.gan_type = 're_avg_gan'

    def set_input(self, real_A, real_B):
        self.real_A, self.real_B = real_A, real_B

    def forward(self):
        self.fake_B = self.netG(self.real_A)

    def backward_D(self):
        fake_B = self.fake_B
        self.pred_fake = self.netD(fake_B.detach())
        self.pred_real = self.netD(self.real_B)
        if self.gan_type == 're_avg_gan':
            self.loss_D_fake = self.criterionGAN(self.pred_fake - torch.mean(self.pred_real), False)
            self.loss_D_real = self.criterionGAN(self.pred_real - torch.mean(self.pred_fake), True)
        self.loss_D = (self.loss_D_fake + self.loss_D_real) * 0.5
        self.loss_D.backward()

    def backward_G(self):
        pred_fake = self.netD(self.fake_B)
        self.pred_real = self.netD(self.real_B).detach()
        if self.gan_type == 're_avg_gan':
            self.loss_G_GAN = (self.criterionGAN(self.pred_real - torch.mean(pred_fake), False)
                               + self.criterionGAN(pred_fake - torch.mean(self.pred_real), True)) / 2.
        self.loss_G_L1 = self.criterionL1(self.fake_B, self.real_B) * 100
        self.loss_G = self.loss_G_GAN + self.loss_G_L1
        self.loss_G.backward()

    def optimize_parameters(self):
        self.forward()
        self.optimizer_D.zero_grad()
        self.backward_D()
        self.optimizer_D.step()
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()


model = ShiftNetModel()
for i in range(3):
    model.set_input(torch.randn(2, 3, 8, 8), torch.randn(2, 3, 8, 8))
    model.optimize_parameters()
    print(i, model.loss_D.item(), model.loss_G.item())
