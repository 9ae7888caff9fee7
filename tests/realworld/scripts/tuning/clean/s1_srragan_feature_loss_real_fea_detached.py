# source: https://github.com/XPixelGroup/BasicSR/issues/50
# style: gan
# expert: correct: the perceptual target real_fea = netF(var_H).detach(), the relativistic D targets use pred_d_real.detach() in the G step, and the D step scores fake_H.detach(), so the G and D backward passes never share a freed graph
import torch
import torch.nn as nn

torch.manual_seed(0)


class SRRaGANModel:
    def __init__(self):
        self.netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 3, 3, padding=1))
        self.netD = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(8 * 4 * 4, 1))
        self.netF = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        for p in self.netF.parameters():
            p.requires_grad = False
        self.cri_pix, self.cri_fea, self.cri_gan = nn.L1Loss(), nn.L1Loss(), nn.BCEWithLogitsLoss()
        self.l_pix_w, self.l_fea_w, self.l_gan_w = 1e-2, 1.0, 5e-3
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=1e-4)
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=1e-4)

    def feed_data(self, L, H):
        self.var_L, self.var_H = L, H

    def optimize_parameters(self, step):
        # G
        for p in self.netD.parameters():
            p.requires_grad = False
        self.optimizer_G.zero_grad()
        self.fake_H = self.netG(self.var_L)
        l_g_pix = self.l_pix_w * self.cri_pix(self.fake_H, self.var_H)
        real_fea = self.netF(self.var_H).detach()
        fake_fea = self.netF(self.fake_H)
        l_g_fea = self.l_fea_w * self.cri_fea(fake_fea, real_fea)
        pred_g_fake = self.netD(self.fake_H)
        pred_d_real = self.netD(self.var_H).detach()
        l_g_gan = self.l_gan_w * (self.cri_gan(pred_d_real - torch.mean(pred_g_fake), torch.zeros_like(pred_d_real)) +
                                  self.cri_gan(pred_g_fake - torch.mean(pred_d_real), torch.ones_like(pred_g_fake))) / 2
        l_g_total = l_g_pix + l_g_fea + l_g_gan
        l_g_total.backward()
        self.optimizer_G.step()
        # D
        for p in self.netD.parameters():
            p.requires_grad = True
        self.optimizer_D.zero_grad()
        pred_d_real = self.netD(self.var_H)
        pred_d_fake = self.netD(self.fake_H.detach())
        l_d_real = self.cri_gan(pred_d_real - torch.mean(pred_d_fake), torch.ones_like(pred_d_real))
        l_d_fake = self.cri_gan(pred_d_fake - torch.mean(pred_d_real), torch.zeros_like(pred_d_fake))
        l_d_total = (l_d_real + l_d_fake) / 2
        l_d_total.backward()
        self.optimizer_D.step()
        return l_g_total.item(), l_d_total.item()


model = SRRaGANModel()
for step in range(3):
    model.feed_data(torch.randn(2, 3, 8, 8), torch.randn(2, 3, 8, 8))
    print(step, model.optimize_parameters(step))
