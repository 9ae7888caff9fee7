import os
import torch
import torch.nn as nn
import torch.optim as optim


class EdgeGenerator(nn.Module):
    def __init__(self):
        super(EdgeGenerator, self).__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.InstanceNorm2d(8), nn.ReLU(True))
        self.decoder = nn.Conv2d(8, 1, 3, padding=1)

    def forward(self, x):
        return torch.sigmoid(self.decoder(self.encoder(x)))


class Discriminator(nn.Module):
    def __init__(self, in_channels):
        super(Discriminator, self).__init__()
        self.conv1 = nn.Sequential(nn.Conv2d(in_channels, 8, 4, stride=2, padding=1), nn.LeakyReLU(0.2, inplace=True))
        self.conv2 = nn.Conv2d(8, 1, 3, padding=1)

    def forward(self, x):
        conv1 = self.conv1(x)
        outputs = torch.sigmoid(self.conv2(conv1))
        return outputs, [conv1]


class BaseModel(nn.Module):
    def __init__(self, name, config):
        super(BaseModel, self).__init__()
        self.name = name
        self.config = config
        self.iteration = 0


class EdgeModel(BaseModel):
    def __init__(self, config):
        super(EdgeModel, self).__init__('EdgeModel', config)

        generator = EdgeGenerator()
        discriminator = Discriminator(in_channels=2)
        l1_loss = nn.L1Loss()
        adversarial_loss = nn.BCELoss()

        self.add_module('generator', generator)
        self.add_module('discriminator', discriminator)
        self.add_module('l1_loss', l1_loss)
        self.add_module('adversarial_loss', adversarial_loss)

        self.gen_optimizer = optim.Adam(params=generator.parameters(), lr=float(config.LR), betas=(config.BETA1, config.BETA2))
        self.dis_optimizer = optim.Adam(params=discriminator.parameters(), lr=float(config.LR) * float(config.D2G_LR), betas=(config.BETA1, config.BETA2))

    def process(self, images, edges, masks):
        self.iteration += 1

        # zero optimizers
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()

        # process outputs
        outputs = self(images, edges, masks)
        gen_loss = 0
        dis_loss = 0

        # discriminator loss
        dis_input_real = torch.cat((images[:, :1], edges), dim=1)
        dis_input_fake = torch.cat((images[:, :1], outputs.detach()), dim=1)
        dis_real, dis_real_feat = self.discriminator(dis_input_real)
        dis_fake, dis_fake_feat = self.discriminator(dis_input_fake)
        dis_real_loss = self.adversarial_loss(dis_real, torch.ones_like(dis_real))
        dis_fake_loss = self.adversarial_loss(dis_fake, torch.zeros_like(dis_fake))
        dis_loss += (dis_real_loss + dis_fake_loss) / 2

        # generator adversarial loss
        gen_input_fake = torch.cat((images[:, :1], outputs), dim=1)
        gen_fake, gen_fake_feat = self.discriminator(gen_input_fake)
        gen_gan_loss = self.adversarial_loss(gen_fake, torch.ones_like(gen_fake))
        gen_loss += gen_gan_loss

        # generator feature matching loss
        gen_fm_loss = 0
        for i in range(len(dis_real_feat)):
            gen_fm_loss += self.l1_loss(gen_fake_feat[i], dis_real_feat[i].detach())
        gen_fm_loss = gen_fm_loss * self.config.FM_LOSS_WEIGHT
        gen_loss += gen_fm_loss

        logs = [("l_d1", dis_loss.item()), ("l_g1", gen_gan_loss.item()), ("l_fm", gen_fm_loss.item())]
        return outputs, gen_loss, dis_loss, logs

    def forward(self, images, edges, masks):
        edges_masked = (edges * (1 - masks))
        images_masked = (images * (1 - masks)) + masks
        inputs = torch.cat((images_masked[:, :2], edges_masked), dim=1)
        outputs = self.generator(inputs)
        return outputs

    def backward(self, gen_loss=None, dis_loss=None):
        if gen_loss is not None:
            gen_loss.backward()
        self.gen_optimizer.step()

        if dis_loss is not None:
            dis_loss.backward()
        self.dis_optimizer.step()
