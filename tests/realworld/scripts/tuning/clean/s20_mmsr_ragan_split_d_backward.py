# source: https://github.com/open-mmlab/mmagic/issues/83
# style: gan
# expert: The reporter asked why SRGANModel.optimize_parameters keeps a commented-out single-backward RaGAN discriminator loss next to the active one; xinntao answered that the discriminator simply has two losses, for real and for fake samples. The active form is correct: it backpropagates l_d_real, then recomputes D(fake_H.detach()) and uses pred_d_real.detach() in l_d_fake, so no graph is backpropagated twice and both gradients accumulate before optimizer_D.step(); the G step runs with D frozen and fake_H is detached for D.
# SRGANModel of mmsr/mmediting (codes/models/SRGAN_model.py, ESRGAN setting gan_type 'ragan')
# trimmed to run on CPU: DataParallel, logging, schedulers, BaseModel and checkpoints removed;
# tiny RRDB-like generator, VGG-style discriminator and frozen feature net stand in for
# define_G/define_D/define_F (VGG19); random 8x8 -> 16x16 patches replace the LQ/GT dataset.
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(0)


class GANLoss(nn.Module):
    def __init__(self, gan_type, real_label_val=1.0, fake_label_val=0.0):
        super(GANLoss, self).__init__()
        self.gan_type = gan_type.lower()
        self.real_label_val = real_label_val
        self.fake_label_val = fake_label_val

        if self.gan_type == 'gan' or self.gan_type == 'ragan':
            self.loss = nn.BCEWithLogitsLoss()
        elif self.gan_type == 'lsgan':
            self.loss = nn.MSELoss()
        else:
            raise NotImplementedError('GAN type [{:s}] is not found'.format(self.gan_type))

    def get_target_label(self, input, target_is_real):
        if target_is_real:
            return torch.empty_like(input).fill_(self.real_label_val)
        else:
            return torch.empty_like(input).fill_(self.fake_label_val)

    def forward(self, input, target_is_real):
        target_label = self.get_target_label(input, target_is_real)
        loss = self.loss(input, target_label)
        return loss


class TinyRRDBNet(nn.Module):  # stands in for RRDBNet (x2)
    def __init__(self, nf=16):
        super().__init__()
        self.conv_first = nn.Conv2d(3, nf, 3, 1, 1)
        self.body = nn.Sequential(nn.Conv2d(nf, nf, 3, 1, 1), nn.LeakyReLU(0.2), nn.Conv2d(nf, nf, 3, 1, 1))
        self.upconv = nn.Conv2d(nf, nf, 3, 1, 1)
        self.conv_last = nn.Conv2d(nf, 3, 3, 1, 1)
        self.lrelu = nn.LeakyReLU(negative_slope=0.2)

    def forward(self, x):
        fea = self.conv_first(x)
        fea = fea + self.body(fea)
        fea = self.lrelu(self.upconv(nn.functional.interpolate(fea, scale_factor=2, mode='nearest')))
        return self.conv_last(fea)


class TinyDiscriminatorVGG(nn.Module):  # stands in for Discriminator_VGG_128
    def __init__(self, nf=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, nf, 3, 1, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(nf, nf, 4, 2, 1, bias=False), nn.BatchNorm2d(nf, affine=True), nn.LeakyReLU(0.2),
            nn.Conv2d(nf, 2 * nf, 4, 2, 1, bias=False), nn.BatchNorm2d(2 * nf, affine=True), nn.LeakyReLU(0.2))
        self.linear1 = nn.Linear(2 * nf * 4 * 4, 32)
        self.linear2 = nn.Linear(32, 1)
        self.lrelu = nn.LeakyReLU(negative_slope=0.2)

    def forward(self, x):
        fea = self.features(x).flatten(1)
        return self.linear2(self.lrelu(self.linear1(fea)))


class TinyVGGFeatureExtractor(nn.Module):  # stands in for VGGFeatureExtractor (frozen VGG19)
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, 1, 1), nn.ReLU(), nn.Conv2d(8, 8, 3, 1, 1))
        for k, v in self.features.named_parameters():
            v.requires_grad = False

    def forward(self, x):
        return self.features(x)


class SRGANModel():
    def __init__(self, opt):
        self.opt = opt
        self.device = torch.device('cpu')
        self.is_train = opt['is_train']
        self.optimizers = []
        train_opt = opt['train']

        # define networks and load pretrained models
        self.netG = TinyRRDBNet().to(self.device)
        if self.is_train:
            self.netD = TinyDiscriminatorVGG().to(self.device)

            self.netG.train()
            self.netD.train()

        # define losses, optimizer and scheduler
        if self.is_train:
            # G pixel loss
            if train_opt['pixel_weight'] > 0:
                self.cri_pix = nn.L1Loss().to(self.device)
                self.l_pix_w = train_opt['pixel_weight']
            else:
                self.cri_pix = None

            # G feature loss
            if train_opt['feature_weight'] > 0:
                self.cri_fea = nn.L1Loss().to(self.device)
                self.l_fea_w = train_opt['feature_weight']
            else:
                self.cri_fea = None
            if self.cri_fea:  # load VGG perceptual loss
                self.netF = TinyVGGFeatureExtractor().to(self.device)

            # GD gan loss
            self.cri_gan = GANLoss(train_opt['gan_type'], 1.0, 0.0).to(self.device)
            self.l_gan_w = train_opt['gan_weight']
            # D_update_ratio and D_init_iters
            self.D_update_ratio = train_opt['D_update_ratio'] if train_opt['D_update_ratio'] else 1
            self.D_init_iters = train_opt['D_init_iters'] if train_opt['D_init_iters'] else 0

            # optimizers
            # G
            optim_params = []
            for k, v in self.netG.named_parameters():  # can optimize for a part of the model
                if v.requires_grad:
                    optim_params.append(v)
            self.optimizer_G = torch.optim.Adam(optim_params, lr=train_opt['lr_G'],
                                                betas=(train_opt['beta1_G'], train_opt['beta2_G']))
            self.optimizers.append(self.optimizer_G)
            # D
            self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=train_opt['lr_D'],
                                                betas=(train_opt['beta1_D'], train_opt['beta2_D']))
            self.optimizers.append(self.optimizer_D)

            self.log_dict = OrderedDict()

    def feed_data(self, data, need_GT=True):
        self.var_L = data['LQ'].to(self.device)  # LQ
        if need_GT:
            self.var_H = data['GT'].to(self.device)  # GT
            input_ref = data['ref'] if 'ref' in data else data['GT']
            self.var_ref = input_ref.to(self.device)

    def optimize_parameters(self, step):
        # G
        for p in self.netD.parameters():
            p.requires_grad = False

        self.optimizer_G.zero_grad()
        self.fake_H = self.netG(self.var_L)

        l_g_total = 0
        if step % self.D_update_ratio == 0 and step > self.D_init_iters:
            if self.cri_pix:  # pixel loss
                l_g_pix = self.l_pix_w * self.cri_pix(self.fake_H, self.var_H)
                l_g_total += l_g_pix
            if self.cri_fea:  # feature loss
                real_fea = self.netF(self.var_H).detach()
                fake_fea = self.netF(self.fake_H)
                l_g_fea = self.l_fea_w * self.cri_fea(fake_fea, real_fea)
                l_g_total += l_g_fea

            if self.opt['train']['gan_type'] == 'gan':
                pred_g_fake = self.netD(self.fake_H)
                l_g_gan = self.l_gan_w * self.cri_gan(pred_g_fake, True)
            elif self.opt['train']['gan_type'] == 'ragan':
                pred_d_real = self.netD(self.var_ref).detach()
                pred_g_fake = self.netD(self.fake_H)
                l_g_gan = self.l_gan_w * (
                    self.cri_gan(pred_d_real - torch.mean(pred_g_fake), False) +
                    self.cri_gan(pred_g_fake - torch.mean(pred_d_real), True)) / 2
            l_g_total += l_g_gan

            l_g_total.backward()
            self.optimizer_G.step()

        # D
        for p in self.netD.parameters():
            p.requires_grad = True

        self.optimizer_D.zero_grad()
        if self.opt['train']['gan_type'] == 'gan':
            # need to forward and backward separately, since batch norm statistics differ
            # real
            pred_d_real = self.netD(self.var_ref)
            l_d_real = self.cri_gan(pred_d_real, True)
            l_d_real.backward()
            # fake
            pred_d_fake = self.netD(self.fake_H.detach())  # detach to avoid BP to G
            l_d_fake = self.cri_gan(pred_d_fake, False)
            l_d_fake.backward()
        elif self.opt['train']['gan_type'] == 'ragan':
            # pred_d_real = self.netD(self.var_ref)
            # pred_d_fake = self.netD(self.fake_H.detach())  # detach to avoid BP to G
            # l_d_real = self.cri_gan(pred_d_real - torch.mean(pred_d_fake), True)
            # l_d_fake = self.cri_gan(pred_d_fake - torch.mean(pred_d_real), False)
            # l_d_total = (l_d_real + l_d_fake) / 2
            # l_d_total.backward()
            pred_d_fake = self.netD(self.fake_H.detach()).detach()
            pred_d_real = self.netD(self.var_ref)
            l_d_real = self.cri_gan(pred_d_real - torch.mean(pred_d_fake), True) * 0.5
            l_d_real.backward()
            pred_d_fake = self.netD(self.fake_H.detach())
            l_d_fake = self.cri_gan(pred_d_fake - torch.mean(pred_d_real.detach()), False) * 0.5
            l_d_fake.backward()
        self.optimizer_D.step()

        # set log
        if step % self.D_update_ratio == 0 and step > self.D_init_iters:
            if self.cri_pix:
                self.log_dict['l_g_pix'] = l_g_pix.item()
            if self.cri_fea:
                self.log_dict['l_g_fea'] = l_g_fea.item()
            self.log_dict['l_g_gan'] = l_g_gan.item()

        self.log_dict['l_d_real'] = l_d_real.item()
        self.log_dict['l_d_fake'] = l_d_fake.item()
        self.log_dict['D_real'] = torch.mean(pred_d_real.detach())
        self.log_dict['D_fake'] = torch.mean(pred_d_fake.detach())

    def get_current_log(self):
        return self.log_dict


if __name__ == '__main__':
    opt = {'is_train': True,
           'train': {'pixel_weight': 1e-2, 'feature_weight': 1, 'gan_type': 'ragan',
                     'gan_weight': 5e-3, 'D_update_ratio': 1, 'D_init_iters': 0,
                     'lr_G': 1e-4, 'beta1_G': 0.9, 'beta2_G': 0.99,
                     'lr_D': 1e-4, 'beta1_D': 0.9, 'beta2_D': 0.99}}
    model = SRGANModel(opt)
    for current_step in range(1, 5):
        gt = torch.rand(2, 3, 16, 16)
        lq = nn.functional.avg_pool2d(gt, 2)
        model.feed_data({'LQ': lq, 'GT': gt})
        model.optimize_parameters(current_step)
    print({k: float(v) for k, v in model.get_current_log().items()})
