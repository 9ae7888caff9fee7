# source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/439
# style: gan
# cause: computed_before_loop
# line: 70
# expert: fake_B is produced once by forward() and reused by every critic step; the gradient penalty is fed the undetached fake_AB, so each loss_D.backward() runs into netG's graph again. Pass fake_AB.detach() to cal_gradient_penalty (the fake branch already uses fake_AB.detach()).
import torch
import torch.nn as nn

torch.manual_seed(0)


def cal_gradient_penalty(netD, real_data, fake_data, device, type='mixed', constant=1.0, lambda_gp=10.0):
    alpha = torch.rand(real_data.shape[0], 1, device=device)
    alpha = alpha.expand(real_data.shape[0], real_data.nelement() // real_data.shape[0]).contiguous().view(*real_data.shape)
    interpolatesv = alpha * real_data + ((1 - alpha) * fake_data)
    interpolatesv.requires_grad_(True)
    disc_interpolates = netD(interpolatesv)
    gradients = torch.autograd.grad(outputs=disc_interpolates, inputs=interpolatesv,
                                    grad_outputs=torch.ones(disc_interpolates.size()).to(device),
                                    create_graph=True, retain_graph=True, only_inputs=True)
    gradients = gradients[0].view(real_data.size(0), -1)
    gradient_penalty = (((gradients + 1e-16).norm(2, dim=1) - constant) ** 2).mean() * lambda_gp
    return gradient_penalty, gradients


class GANLoss(nn.Module):
    def __init__(self, gan_mode='wgangp'):
        super().__init__()
        self.gan_mode = gan_mode

    def __call__(self, prediction, target_is_real, soft_label=False):
        return -prediction.mean() if target_is_real else prediction.mean()


class Pix2PixModel:
    def __init__(self, n_critic=3, L_GP=10.0):
        self.device = torch.device('cpu')
        self.netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())
        self.netD = nn.Sequential(nn.Conv2d(6, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(8 * 4 * 4, 1))
        self.criterionGAN = GANLoss('wgangp')
        self.criterionL1 = nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=1e-4, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=1e-4, betas=(0.5, 0.999))
        self.n_critic = n_critic
        self.L_GP = L_GP
        self.using_soft_label = False

    def set_input(self, data):
        self.real_A = data['A']
        self.real_B = data['B']

    def set_requires_grad(self, net, requires_grad):
        for p in net.parameters():
            p.requires_grad = requires_grad

    def forward(self):
        self.fake_B = self.netG(self.real_A)

    def backward_D(self):
        """Calculate GAN loss for the discriminator"""
        # Fake; stop backprop to the generator by detaching fake_B
        fake_AB = torch.cat((self.real_A, self.fake_B), 1)
        pred_fake = self.netD(fake_AB.detach())
        self.loss_D_fake = self.criterionGAN(pred_fake, False)
        # Real
        real_AB = torch.cat((self.real_A, self.real_B), 1)
        pred_real = self.netD(real_AB)
        self.loss_D_real = self.criterionGAN(pred_real, True, soft_label=self.using_soft_label)
        # gradient penalty
        self.gradient_penalty, self.gradients = cal_gradient_penalty(self.netD, real_AB, fake_AB, self.device, lambda_gp=self.L_GP)
        self.loss_D = self.loss_D_fake + self.loss_D_real + self.gradient_penalty
        self.loss_D.backward()

    def backward_G(self):
        fake_AB = torch.cat((self.real_A, self.fake_B), 1)
        pred_fake = self.netD(fake_AB)
        self.loss_G_GAN = self.criterionGAN(pred_fake, True)
        self.loss_G_L1 = self.criterionL1(self.fake_B, self.real_B) * 100.0
        self.loss_G = self.loss_G_GAN + self.loss_G_L1
        self.loss_G.backward()

    def optimize_parameters(self):
        self.forward()                   # compute fake images: G(A)
        # update D (several critic steps before one G step)
        self.set_requires_grad(self.netD, True)
        for _ in range(self.n_critic):
            self.optimizer_D.zero_grad()
            self.backward_D()
            self.optimizer_D.step()
        # update G
        self.set_requires_grad(self.netD, False)
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()


model = Pix2PixModel()
dataset = [{'A': torch.randn(2, 3, 8, 8), 'B': torch.randn(2, 3, 8, 8)} for _ in range(3)]
for epoch in range(2):
    for data in dataset:
        model.set_input(data)
        model.optimize_parameters()
    print('epoch', epoch, 'loss_D', model.loss_D.item(), 'loss_G', model.loss_G.item())
