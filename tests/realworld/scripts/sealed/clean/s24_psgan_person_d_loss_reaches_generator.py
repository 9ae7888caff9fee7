# source: https://github.com/yifanjiang19/Pedestrian-Synthesis-GAN/issues/32
# style: gan
# expert: The reporter asked whether backward_D_person must detach self.person_crop_fake, since the person-discriminator loss is backpropagated into the generator. The maintainer answered that no detach is needed: optimize_parameters re-runs self.forward() before each of the three phases, so every backward goes through its own fresh generator graph, and optimizer_G.zero_grad() runs right before backward_G, so the generator gradients left by the discriminator step are cleared before the generator update (a detach would only save some computation).
# Pix2PixModel of models/pix2pix_model.py (forward, backward_D_image, backward_D_person, backward_G,
# optimize_parameters), GANLoss of models/networks.py and ImagePool of util/image_pool.py at
# 963cccb, with the repository's defaults (lsgan image discriminator, BCE person discriminator with
# sigmoid, pool_size 0, lambda_A 100). initialize() is cut down: small conv stand-ins of the same
# roles replace the 256x256 U-Net generator, the PatchGAN NLayerDiscriminator and the
# PersonDiscriminator, there is no checkpoint loading or network printing, and opt is a small
# namespace. Random 32x32 image pairs with a fixed pedestrian bounding box stand in for the
# aligned dataset; 3 iterations, CPU.
from types import SimpleNamespace

import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)


# ---- util/image_pool.py ----
class ImagePool():
    def __init__(self, pool_size):
        self.pool_size = pool_size
        if self.pool_size > 0:
            self.num_imgs = 0
            self.images = []

    def query(self, images):
        if self.pool_size == 0:
            return images
        raise NotImplementedError


# ---- models/networks.py ----
class GANLoss(nn.Module):
    def __init__(self, use_lsgan=True, target_real_label=1.0, target_fake_label=0.0,
                 tensor=torch.FloatTensor):
        super(GANLoss, self).__init__()
        self.real_label = target_real_label
        self.fake_label = target_fake_label
        self.real_label_var = None
        self.fake_label_var = None
        self.Tensor = tensor
        if use_lsgan:
            self.loss = nn.MSELoss()
        else:
            self.loss = nn.BCELoss()

    def get_target_tensor(self, input, target_is_real):
        target_tensor = None
        if target_is_real:
            create_label = ((self.real_label_var is None) or
                            (self.real_label_var.numel() != input.numel()))
            if create_label:
                real_tensor = self.Tensor(input.size()).fill_(self.real_label)
                self.real_label_var = Variable(real_tensor, requires_grad=False)
            target_tensor = self.real_label_var
        else:
            create_label = ((self.fake_label_var is None) or
                            (self.fake_label_var.numel() != input.numel()))
            if create_label:
                fake_tensor = self.Tensor(input.size()).fill_(self.fake_label)
                self.fake_label_var = Variable(fake_tensor, requires_grad=False)
            target_tensor = self.fake_label_var
        return target_tensor

    def __call__(self, input, target_is_real):
        target_tensor = self.get_target_tensor(input, target_is_real)
        return self.loss(input, target_tensor)


# small stand-ins for the U-Net generator, the PatchGAN and the person discriminator
def define_G(input_nc, output_nc, ngf):
    return nn.Sequential(nn.Conv2d(input_nc, ngf, 3, padding=1), nn.BatchNorm2d(ngf), nn.ReLU(),
                         nn.Conv2d(ngf, ngf, 3, padding=1), nn.BatchNorm2d(ngf), nn.ReLU(),
                         nn.Conv2d(ngf, output_nc, 3, padding=1), nn.Tanh())


def define_image_D(input_nc, ndf):
    return nn.Sequential(nn.Conv2d(input_nc, ndf, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
                         nn.Conv2d(ndf, ndf * 2, 4, stride=2, padding=1), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2),
                         nn.Conv2d(ndf * 2, 1, 4, stride=1, padding=1))


def define_person_D(input_nc, ndf):
    return nn.Sequential(nn.Conv2d(input_nc, ndf, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                         nn.Conv2d(ndf, ndf * 2, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(ndf * 2, 1), nn.Sigmoid())


# ---- models/pix2pix_model.py ----
class Pix2PixModel():
    def name(self):
        return 'Pix2PixModel'

    def initialize(self, opt):
        self.opt = opt
        self.Tensor = torch.FloatTensor
        self.isTrain = opt.isTrain
        # define tensors
        self.input_A = self.Tensor(opt.batchSize, opt.input_nc,
                                   opt.fineSize, opt.fineSize)
        self.input_B = self.Tensor(opt.batchSize, opt.output_nc,
                                   opt.fineSize, opt.fineSize)

        # load/define networks
        self.netG = define_G(opt.input_nc, opt.output_nc, opt.ngf)
        if self.isTrain:
            self.netD_image = define_image_D(opt.input_nc + opt.output_nc, opt.ndf)
            self.netD_person = define_person_D(opt.input_nc, opt.ndf)

        if self.isTrain:
            self.fake_AB_pool = ImagePool(opt.pool_size)
            self.old_lr = opt.lr
            # define loss functions
            self.criterionGAN_image = GANLoss(use_lsgan=not opt.no_lsgan, tensor=self.Tensor)
            self.criterionGAN_person = GANLoss(use_lsgan=opt.no_lsgan, tensor=self.Tensor)
            self.criterionL1 = torch.nn.L1Loss()

            # initialize optimizers
            self.optimizer_G = torch.optim.Adam(self.netG.parameters(),
                                                lr=opt.lr, betas=(opt.beta1, 0.999))
            self.optimizer_D_image = torch.optim.Adam(self.netD_image.parameters(),
                                                lr=opt.lr, betas=(opt.beta1, 0.999))
            self.optimizer_D_person = torch.optim.Adam(self.netD_person.parameters(),
                                                lr=opt.lr, betas=(opt.beta1, 0.999))

    def set_input(self, input):
        AtoB = self.opt.which_direction == 'AtoB'
        input_A = input['A' if AtoB else 'B']
        input_B = input['B' if AtoB else 'A']
        self.bbox = input['bbox']
        self.input_A.resize_(input_A.size()).copy_(input_A)
        self.input_B.resize_(input_B.size()).copy_(input_B)

        self.image_paths = input['A_paths' if AtoB else 'B_paths']

    def forward(self):
        self.real_A = Variable(self.input_A)
        self.fake_B = self.netG.forward(self.real_A)
        self.real_B = Variable(self.input_B)

        y,x,w,h = self.bbox
        self.person_crop_real = self.real_B[:,:,y[0]:h[0],x[0]:w[0]]
        self.person_crop_fake = self.fake_B[:,:,y[0]:h[0],x[0]:w[0]]

    def backward_D_image(self):
        # Fake
        # stop backprop to the generator by detaching fake_B
        fake_AB = self.fake_AB_pool.query(torch.cat((self.real_A, self.fake_B), 1))
        self.pred_fake = self.netD_image.forward(fake_AB.detach())
        self.loss_D_image_fake = self.criterionGAN_image(self.pred_fake, False)

        # Real
        real_AB = torch.cat((self.real_A, self.real_B), 1)
        self.pred_real = self.netD_image.forward(real_AB)
        self.loss_D_image_real = self.criterionGAN_image(self.pred_real, True)

        # Combined loss
        self.loss_D_image = (self.loss_D_image_fake + self.loss_D_image_real) * 0.5

        self.loss_D_image.backward()

    def backward_D_person(self):
        #Fake
        self.person_fake = self.netD_person.forward(self.person_crop_fake)
        self.loss_D_person_fake = self.criterionGAN_person(self.person_fake, False)

        #Real
        self.person_real = self.netD_person.forward(self.person_crop_real)
        self.loss_D_person_real = self.criterionGAN_person(self.person_real, True)

        #Combine loss
        self.loss_D_person = (self.loss_D_person_fake + self.loss_D_person_real) * 0.5
        self.loss_D_person.backward()

    def backward_G(self):
        # First, G(A) should fake the discriminator1 and discriminator1
        # discriminator1
        fake_AB = torch.cat((self.real_A, self.fake_B), 1)
        pred_fake_image = self.netD_image.forward(fake_AB)
        self.loss_G_GAN_image = self.criterionGAN_image(pred_fake_image, True)
        # Second, G(A) = B
        self.loss_G_L1 = self.criterionL1(self.fake_B, self.real_B) * self.opt.lambda_A

        pred_fake_person = self.netD_person.forward(self.person_crop_fake)
        self.loss_G_GAN_person = self.criterionGAN_person(pred_fake_person, True)

        self.loss_G = self.loss_G_GAN_image + self.loss_G_L1 + self.loss_G_GAN_person

        self.loss_G.backward()

    def optimize_parameters(self, only_d):

        self.forward()
        self.optimizer_D_image.zero_grad()
        self.backward_D_image()
        self.optimizer_D_image.step()

        self.forward()
        self.optimizer_D_person.zero_grad()
        self.backward_D_person()
        self.optimizer_D_person.step()

        if only_d == False:
            self.forward()
            self.optimizer_G.zero_grad()
            self.backward_G()
            self.optimizer_G.step()


# ---- train.py stand-in: random aligned pairs with one pedestrian box ----
opt = SimpleNamespace(isTrain=True, batchSize=1, input_nc=3, output_nc=3, fineSize=32, ngf=8, ndf=8,
                      no_lsgan=False, pool_size=0, lr=0.0002, beta1=0.5, lambda_A=100.0,
                      which_direction='AtoB')
model = Pix2PixModel()
model.initialize(opt)
for i in range(3):
    data = {'A': torch.rand(1, 3, 32, 32) * 2 - 1, 'B': torch.rand(1, 3, 32, 32) * 2 - 1,
            'bbox': ([8], [10], [22], [26]), 'A_paths': ['a.png'], 'B_paths': ['b.png']}
    model.set_input(data)
    model.optimize_parameters(only_d=False)
    print(i, model.loss_G.item(), model.loss_D_person.item())
