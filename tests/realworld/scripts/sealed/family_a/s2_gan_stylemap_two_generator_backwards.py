# source: https://github.com/naver-ai/StyleMapGAN/issues/16
# style: gan
# cause: shared_subgraph_multiple_backward
# line: 71
# expert: the adversarial loss and the w reconstruction loss come from one generator forward, so sum them (g_w_rec_loss = adv_loss * lambda_adv + w_rec_loss * lambda_w_rec) and call backward once
import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self, latent_dim=8, img_dim=16):
        super().__init__()
        self.mapping = nn.Sequential(nn.Linear(latent_dim, 16), nn.LeakyReLU(0.2), nn.Linear(16, 16))
        self.synthesis = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, img_dim))

    def forward(self, z):
        stylecode = self.mapping(z)
        return self.synthesis(stylecode), stylecode


class Encoder(nn.Module):
    def __init__(self, img_dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(img_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 16))

    def forward(self, img):
        return self.net(img)


class Discriminator(nn.Module):
    def __init__(self, img_dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(img_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, img):
        return self.net(img)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.generator = Generator()
        self.encoder = Encoder()
        self.discriminator = Discriminator()

    def forward(self, real_img, mode):
        if mode == "G":
            z = torch.randn(4, 8)
            fake_img, stylecode = self.generator(z)
            fake_pred = self.discriminator(fake_img)
            adv_loss = F.softplus(-fake_pred)
            fake_stylecode = self.encoder(fake_img)
            w_rec_loss = F.mse_loss(stylecode, fake_stylecode, reduction="none").mean(1)
            return adv_loss, w_rec_loss, stylecode


args = argparse.Namespace(lambda_adv_loss=1.0, lambda_w_rec_loss=1.0, iter=4)
model = Model()
g_optim = torch.optim.Adam(list(model.generator.parameters()) + list(model.encoder.parameters()), lr=2e-3)

for idx in range(args.iter):
    model.zero_grad()
    adv_loss, w_rec_loss, stylecode = model(None, "G")
    adv_loss = adv_loss.mean()
    w_rec_loss = w_rec_loss.mean()
    g_loss = adv_loss * args.lambda_adv_loss
    g_loss.backward()
    (w_rec_loss * args.lambda_w_rec_loss).backward()
    g_optim.step()
    print(idx, g_loss.item(), w_rec_loss.item())
