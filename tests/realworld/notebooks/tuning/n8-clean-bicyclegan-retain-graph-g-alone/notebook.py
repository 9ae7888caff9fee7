# source: https://github.com/junyanz/BicycleGAN/issues/81
# scenario: clean
# order: 0 1 2 3 4 5 2 3 4 5
# expert: clean: loss_G.backward(retain_graph=True) in the 'update G and E' cell is needed and correct, because the 'update G alone' cell backpropagates loss_z_L1 = |E(G(A, z_random)) - z_random| through the same generator graph for fake_B_random (the graph loss_G_GAN2 also went through); the last backward frees it, the D cell works on detached fakes, and each re-run of the forward cell builds a fresh graph, so the two-iteration run is clean
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)

nz, batch_size = 4, 4
lambda_GAN, lambda_GAN2, lambda_kl, lambda_L1, lambda_z = 1.0, 1.0, 0.01, 10.0, 0.5


class G_Unet_add_all(nn.Module):  # tiny stand-in: the latent code is tiled and concatenated to the input
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3 + nz, 8, 3, 1, 1), nn.ReLU(), nn.Conv2d(8, 3, 3, 1, 1), nn.Tanh())

    def forward(self, x, z):
        z_img = z.view(z.size(0), z.size(1), 1, 1).expand(z.size(0), z.size(1), x.size(2), x.size(3))
        return self.net(torch.cat([x, z_img], 1))


class E_ResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(8, nz)
        self.fcVar = nn.Linear(8, nz)

    def forward(self, x):
        h = self.conv(x).flatten(1)
        return self.fc(h), self.fcVar(h)


class D_NLayers(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2, True), nn.Conv2d(8, 1, 4, 1, 1))

    def forward(self, x):
        return [self.model(x)]


class GANLoss(nn.Module):  # lsgan
    def __init__(self):
        super().__init__()
        self.loss = nn.MSELoss()

    def __call__(self, predictions, target_is_real):
        all_losses = []
        for prediction in predictions:
            target_tensor = torch.ones_like(prediction) if target_is_real else torch.zeros_like(prediction)
            all_losses.append(self.loss(prediction, target_tensor))
        total_loss = sum(all_losses)
        return total_loss, all_losses


def set_requires_grad(nets, requires_grad=False):
    for net in nets:
        for param in net.parameters():
            param.requires_grad = requires_grad


def get_z_random(batch_size, nz):
    return torch.randn(batch_size, nz).detach()


def encode(input_image):
    mu, logvar = netE.forward(input_image)
    std = logvar.mul(0.5).exp_()
    eps = get_z_random(std.size(0), std.size(1))
    z = eps.mul(std).add_(mu)
    return z, mu, logvar
# %%
netG, netE, netD, netD2 = G_Unet_add_all(), E_ResNet(), D_NLayers(), D_NLayers()
criterionGAN, criterionL1, criterionZ = GANLoss(), nn.L1Loss(), nn.L1Loss()
optimizer_G = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizer_E = torch.optim.Adam(netE.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizer_D2 = torch.optim.Adam(netD2.parameters(), lr=2e-4, betas=(0.5, 0.999))
# %%
# forward: a new batch, encoded z and random z
real_A, real_B = torch.rand(batch_size, 3, 16, 16), torch.rand(batch_size, 3, 16, 16)
half_size = batch_size // 2
real_A_encoded, real_B_encoded = real_A[0:half_size], real_B[0:half_size]
real_A_random, real_B_random = real_A[half_size:], real_B[half_size:]
z_encoded, mu, logvar = encode(real_B_encoded)
z_random = get_z_random(real_A_encoded.size(0), nz)
fake_B_encoded = netG(real_A_encoded, z_encoded)
fake_B_random = netG(real_A_encoded, z_random)
fake_data_encoded, fake_data_random = fake_B_encoded, fake_B_random
real_data_encoded, real_data_random = real_B_encoded, real_B_random
# compute z_predict
mu2, logvar2 = netE(fake_B_random)  # mu2 is a point estimate
# %%
# update G and E
set_requires_grad([netD, netD2], False)
optimizer_E.zero_grad()
optimizer_G.zero_grad()
# 1, G(A) should fool D
loss_G_GAN = criterionGAN(netD(fake_data_encoded), True)[0] * lambda_GAN
loss_G_GAN2 = criterionGAN(netD2(fake_data_random), True)[0] * lambda_GAN2
# 2. KL loss
loss_kl = torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) * (-0.5 * lambda_kl)
# 3, reconstruction |fake_B-real_B|
loss_G_L1 = criterionL1(fake_B_encoded, real_B_encoded) * lambda_L1
loss_G = loss_G_GAN + loss_G_GAN2 + loss_G_L1 + loss_kl
loss_G.backward(retain_graph=True)
# %%
# update G alone: reconstruction |(E(G(A, z_random)))-z_random|
set_requires_grad([netE], False)
loss_z_L1 = criterionZ(mu2, z_random) * lambda_z
loss_z_L1.backward()
set_requires_grad([netE], True)
optimizer_E.step()
optimizer_G.step()
# %%
# update D and D2 on detached fakes
def backward_D(netD, real, fake):
    pred_fake = netD(fake.detach())
    pred_real = netD(real)
    loss_D_fake, _ = criterionGAN(pred_fake, False)
    loss_D_real, _ = criterionGAN(pred_real, True)
    loss_D = loss_D_fake + loss_D_real
    loss_D.backward()
    return loss_D

set_requires_grad([netD, netD2], True)
optimizer_D.zero_grad()
loss_D = backward_D(netD, real_data_encoded, fake_data_encoded)
optimizer_D.step()
optimizer_D2.zero_grad()
loss_D2 = backward_D(netD2, real_data_random, fake_data_random)
optimizer_D2.step()
print(loss_G.item(), loss_z_L1.item(), loss_D.item(), loss_D2.item())
