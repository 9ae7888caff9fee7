# source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/blob/master/models/cycle_gan_model.py
# style: gan
# expert: correct CycleGAN step: generators are updated first with D frozen (set_requires_grad False), then backward_D_basic uses fake.detach() from an image pool; the two optimizers are zeroed and stepped separately
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)


class ImagePool():
    def __init__(self, pool_size):
        self.pool_size = pool_size
        self.num_imgs = 0
        self.images = []

    def query(self, images):
        return_images = []
        for image in images:
            image = torch.unsqueeze(image.data, 0)
            if self.num_imgs < self.pool_size:
                self.num_imgs = self.num_imgs + 1
                self.images.append(image)
                return_images.append(image)
            else:
                if random.uniform(0, 1) > 0.5:
                    random_id = random.randint(0, self.pool_size - 1)
                    tmp = self.images[random_id].clone()
                    self.images[random_id] = image
                    return_images.append(tmp)
                else:
                    return_images.append(image)
        return torch.cat(return_images, 0)


def G():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())


def D():
    return nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 4, 1, 1))


class CycleGANModel:
    def __init__(self, lambda_A=10.0, lambda_B=10.0, lambda_identity=0.5):
        self.netG_A, self.netG_B, self.netD_A, self.netD_B = G(), G(), D(), D()
        self.fake_A_pool, self.fake_B_pool = ImagePool(4), ImagePool(4)
        self.criterionGAN = nn.MSELoss()
        self.criterionCycle = nn.L1Loss()
        self.criterionIdt = nn.L1Loss()
        self.lambda_A, self.lambda_B, self.lambda_idt = lambda_A, lambda_B, lambda_identity
        self.optimizer_G = torch.optim.Adam(list(self.netG_A.parameters()) + list(self.netG_B.parameters()), lr=2e-4, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(list(self.netD_A.parameters()) + list(self.netD_B.parameters()), lr=2e-4, betas=(0.5, 0.999))

    def gan_loss(self, pred, target_is_real):
        return self.criterionGAN(pred, torch.full_like(pred, 1.0 if target_is_real else 0.0))

    def set_input(self, input):
        self.real_A, self.real_B = input['A'], input['B']

    def forward(self):
        self.fake_B = self.netG_A(self.real_A)
        self.rec_A = self.netG_B(self.fake_B)
        self.fake_A = self.netG_B(self.real_B)
        self.rec_B = self.netG_A(self.fake_A)

    def set_requires_grad(self, nets, requires_grad=False):
        for net in nets:
            for param in net.parameters():
                param.requires_grad = requires_grad

    def backward_D_basic(self, netD, real, fake):
        loss_D_real = self.gan_loss(netD(real), True)
        loss_D_fake = self.gan_loss(netD(fake.detach()), False)
        loss_D = (loss_D_real + loss_D_fake) * 0.5
        loss_D.backward()
        return loss_D

    def backward_D_A(self):
        fake_B = self.fake_B_pool.query(self.fake_B)
        self.loss_D_A = self.backward_D_basic(self.netD_A, self.real_B, fake_B)

    def backward_D_B(self):
        fake_A = self.fake_A_pool.query(self.fake_A)
        self.loss_D_B = self.backward_D_basic(self.netD_B, self.real_A, fake_A)

    def backward_G(self):
        self.idt_A = self.netG_A(self.real_B)
        self.loss_idt_A = self.criterionIdt(self.idt_A, self.real_B) * self.lambda_B * self.lambda_idt
        self.idt_B = self.netG_B(self.real_A)
        self.loss_idt_B = self.criterionIdt(self.idt_B, self.real_A) * self.lambda_A * self.lambda_idt
        self.loss_G_A = self.gan_loss(self.netD_A(self.fake_B), True)
        self.loss_G_B = self.gan_loss(self.netD_B(self.fake_A), True)
        self.loss_cycle_A = self.criterionCycle(self.rec_A, self.real_A) * self.lambda_A
        self.loss_cycle_B = self.criterionCycle(self.rec_B, self.real_B) * self.lambda_B
        self.loss_G = self.loss_G_A + self.loss_G_B + self.loss_cycle_A + self.loss_cycle_B + self.loss_idt_A + self.loss_idt_B
        self.loss_G.backward()

    def optimize_parameters(self):
        self.forward()
        self.set_requires_grad([self.netD_A, self.netD_B], False)
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()
        self.set_requires_grad([self.netD_A, self.netD_B], True)
        self.optimizer_D.zero_grad()
        self.backward_D_A()
        self.backward_D_B()
        self.optimizer_D.step()


model = CycleGANModel()
for i in range(5):
    model.set_input({'A': torch.rand(2, 3, 16, 16) * 2 - 1, 'B': torch.rand(2, 3, 16, 16) * 2 - 1})
    model.optimize_parameters()
    print(i, 'G %.4f D_A %.4f D_B %.4f' % (model.loss_G.item(), model.loss_D_A.item(), model.loss_D_B.item()))
