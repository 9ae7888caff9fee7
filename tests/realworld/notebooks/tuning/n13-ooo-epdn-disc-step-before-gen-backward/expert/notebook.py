# %%
import torch
import torch.nn as nn
torch.manual_seed(0)

# tiny stand-in for the hazy/clear pairs (data['label'], data['image'])
data = {'label': torch.rand(2, 3, 16, 16), 'image': torch.rand(2, 3, 16, 16)}
# %%
class GlobalGenerator(nn.Module):
    def __init__(self, ngf=8):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(3, ngf, 3, 1, 1), nn.ReLU(True),
                                   nn.Conv2d(ngf, ngf, 3, 1, 1), nn.ReLU(True),
                                   nn.Conv2d(ngf, 3, 3, 1, 1), nn.Tanh())

    def forward(self, x):
        return self.model(x)

class NLayerDiscriminator(nn.Module):
    def __init__(self, ndf=8):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(6, ndf, 4, 2, 1), nn.LeakyReLU(0.2, True),
                                   nn.Conv2d(ndf, ndf, 4, 2, 1), nn.LeakyReLU(0.2, True),
                                   nn.Conv2d(ndf, 1, 3, 1, 1))

    def forward(self, x):
        return self.model(x)

netG = GlobalGenerator()
netD = NLayerDiscriminator()
criterionGAN = nn.MSELoss()   # LSGAN
criterionFeat = nn.L1Loss()
criterionL2 = nn.MSELoss()
optimizer_G = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
# %%
############## Forward Pass ######################
input_label, real_image = data['label'], data['image']
fake_image = netG(input_label)
# Fake Detection and Loss
pred_fake_pool = netD(torch.cat((input_label, fake_image.detach()), dim=1))
loss_D_fake = criterionGAN(pred_fake_pool, torch.zeros_like(pred_fake_pool))
# Real Detection and Loss
pred_real = netD(torch.cat((input_label, real_image), dim=1))
loss_D_real = criterionGAN(pred_real, torch.ones_like(pred_real))
# GAN loss (Fake Passability Loss)
pred_fake = netD(torch.cat((input_label, fake_image), dim=1))
loss_G_GAN = criterionGAN(pred_fake, torch.ones_like(pred_fake))
loss_G_GAN_Feat = criterionFeat(pred_fake, pred_real.detach()) * 10.0
loss_G_VGG = criterionFeat(fake_image, real_image) * 10.0
loss_G_L2 = criterionL2(fake_image, real_image)

loss_D = (loss_D_fake + loss_D_real) * 0.5
loss_G = loss_G_GAN_Feat + loss_G_GAN
loss_Enhance = loss_G_L2 + loss_G_VGG
# %%
# update discriminator weights
optimizer_D.zero_grad()
loss_D.backward()
# %%
############### Backward Pass ####################
# update generator weights
for p in netD.parameters():
    p.requires_grad = False
optimizer_G.zero_grad()
loss_G.backward(retain_graph=True)
loss_Enhance.backward()
optimizer_G.step()
for p in netD.parameters():
    p.requires_grad = True
optimizer_D.step()
# %%
# the discriminator step now follows loss_G.backward() in the generator cell
print(loss_D.item(), loss_G.item(), loss_Enhance.item())
