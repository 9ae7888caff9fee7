# source: https://github.com/VITA-Group/DeblurGANv2/issues/19 (Trainer._run_epoch / _update_d of train.py, DoubleGAN of adversarial_trainer.py, RelativisticDiscLossLS / GANLoss of models/losses.py and ImagePool of util/image_pool.py at c16bd9f, on CPU: small conv generator and patch/full discriminators instead of the FPN-Inception generator, an L1 content loss instead of the VGG perceptual loss, random blurred/sharp 32x32 pairs, 4 iterations)
# style: gan
# expert: Correct as written: the discriminator step calls loss_D.backward(retain_graph=True) and the generator step then builds its own loss on the same generator outputs; the discriminator loss only sees outputs.detach(), and the ImagePool stores the discriminator predictions' .data, so the pooled values carry no graph into the generator step. The maintainer's answer in the issue: retain_graph=True is there because loss_G.backward() follows on the same outputs.
import copy
import random
from collections import deque

import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)
random.seed(0)


# ---- util/image_pool.py ---------------------------------------------------------------------------
class ImagePool():
    def __init__(self, pool_size):
        self.pool_size = pool_size
        self.sample_size = pool_size
        if self.pool_size > 0:
            self.num_imgs = 0
            self.images = deque()

    def add(self, images):
        if self.pool_size == 0:
            return images
        for image in images.data:
            image = torch.unsqueeze(image, 0)
            if self.num_imgs < self.pool_size:
                self.num_imgs = self.num_imgs + 1
                self.images.append(image)
            else:
                self.images.popleft()
                self.images.append(image)

    def query(self):
        if len(self.images) > self.sample_size:
            return_images = list(random.sample(self.images, self.sample_size))
        else:
            return_images = list(self.images)
        return torch.cat(return_images, 0)


# ---- models/losses.py (cut down) --------------------------------------------------------------------
class GANLoss(nn.Module):
    def __init__(self, use_l1=True, target_real_label=1.0, target_fake_label=0.0, tensor=torch.FloatTensor):
        super(GANLoss, self).__init__()
        self.real_label = target_real_label
        self.fake_label = target_fake_label
        self.real_label_var = None
        self.fake_label_var = None
        self.Tensor = tensor
        if use_l1:
            self.loss = nn.L1Loss()
        else:
            self.loss = nn.BCEWithLogitsLoss()


class RelativisticDiscLossLS(nn.Module):
    def name(self):
        return 'RelativisticDiscLossLS'

    def __init__(self):
        super(RelativisticDiscLossLS, self).__init__()

        self.criterionGAN = GANLoss(use_l1=True)
        self.fake_pool = ImagePool(50)  # create image buffer to store previously generated images
        self.real_pool = ImagePool(50)

    def get_g_loss(self, net, fakeB, realB):
        # First, G(A) should fake the discriminator
        self.pred_fake = net.forward(fakeB)

        # Real
        self.pred_real = net.forward(realB)
        errG = (torch.mean((self.pred_real - torch.mean(self.fake_pool.query()) + 1) ** 2) +
                torch.mean((self.pred_fake - torch.mean(self.real_pool.query()) - 1) ** 2)) / 2
        return errG

    def get_loss(self, net, fakeB, realB):
        # Fake
        # stop backprop to the generator by detaching fake_B
        # Generated Image Disc Output should be close to zero
        self.fake_B = fakeB.detach()
        self.real_B = realB
        self.pred_fake = net.forward(fakeB.detach())
        self.fake_pool.add(self.pred_fake)

        # Real
        self.pred_real = net.forward(realB)
        self.real_pool.add(self.pred_real)

        # Combined loss
        self.loss_D = (torch.mean((self.pred_real - torch.mean(self.fake_pool.query()) - 1) ** 2) +
                       torch.mean((self.pred_fake - torch.mean(self.real_pool.query()) + 1) ** 2)) / 2
        return self.loss_D

    def __call__(self, net, fakeB, realB):
        return self.get_loss(net, fakeB, realB)


# ---- adversarial_trainer.py (DoubleGAN) -------------------------------------------------------------
class DoubleGAN:
    def __init__(self, net_d, criterion):
        self.net_d = net_d
        self.criterion = criterion
        self.patch_d = net_d['patch']
        self.full_d = net_d['full']
        self.full_criterion = copy.deepcopy(criterion)

    def loss_d(self, pred, gt):
        return (self.criterion(self.patch_d, pred, gt) + self.full_criterion(self.full_d, pred, gt)) / 2

    def loss_g(self, pred, gt):
        return (self.criterion.get_g_loss(self.patch_d, pred, gt) + self.full_criterion.get_g_loss(self.full_d, pred,
                                                                                                  gt)) / 2

    def get_params(self):
        return list(self.patch_d.parameters()) + list(self.full_d.parameters())


# ---- train.py (Trainer, cut down) -------------------------------------------------------------------
class Trainer:
    def __init__(self, config, train):
        self.config = config
        self.train_dataset = train
        self.adv_lambda = config['model']['adv_lambda']

    def _init_params(self):
        self.netG = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1), nn.Tanh())
        netD = {
            'patch': nn.Sequential(nn.Conv2d(3, 16, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(16, 1, 4, 1, 1)),
            'full': nn.Sequential(nn.Conv2d(3, 16, 4, 4), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(16 * 8 * 8, 1)),
        }
        self.criterionG = nn.L1Loss()
        self.adv_trainer = DoubleGAN(netD, RelativisticDiscLossLS())
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=self.config['optimizer']['lr'])
        self.optimizer_D = torch.optim.Adam(self.adv_trainer.get_params(), lr=self.config['optimizer']['lr'])

    def _run_epoch(self, epoch):
        for i, data in enumerate(self.train_dataset):
            inputs, targets = data['a'], data['b']
            outputs = self.netG(inputs)
            loss_D = self._update_d(outputs, targets)
            self.optimizer_G.zero_grad()
            loss_content = self.criterionG(outputs, targets)
            loss_adv = self.adv_trainer.loss_g(outputs, targets)
            loss_G = loss_content + self.adv_lambda * loss_adv
            loss_G.backward()
            self.optimizer_G.step()
            print(f"epoch {epoch} it {i}: G {loss_G.item():.4f} content {loss_content.item():.4f} D {loss_D:.4f}")

    def _update_d(self, outputs, targets):
        if self.config['model']['d_name'] == 'no_gan':
            return 0
        self.optimizer_D.zero_grad()
        loss_D = self.adv_lambda * self.adv_trainer.loss_d(outputs, targets)
        loss_D.backward(retain_graph=True)
        self.optimizer_D.step()
        return loss_D.item()


config = {'model': {'adv_lambda': 0.001, 'd_name': 'double_gan'}, 'optimizer': {'lr': 1e-4}}
train = []
for _ in range(4):
    sharp = torch.rand(2, 3, 32, 32) * 2 - 1
    blurred = nn.functional.avg_pool2d(sharp, 3, 1, 1)
    train.append({'a': blurred, 'b': sharp})
trainer = Trainer(config, train)
trainer._init_params()
trainer._run_epoch(0)
