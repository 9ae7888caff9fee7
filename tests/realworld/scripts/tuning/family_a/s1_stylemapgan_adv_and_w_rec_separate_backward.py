# source: https://github.com/naver-ai/StyleMapGAN/issues/16
# style: gan
# cause: shared_subgraph_multiple_backward
# line: 52
# expert: adv_loss and w_rec_loss come from one model(None, "G") forward and share the mapping/generator graph; backpropagate them in one go (g_w_rec_loss = g_loss + w_rec_loss * lambda; g_w_rec_loss.backward()) as the reporter did
import argparse
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self, latent=8, img=16):
        super().__init__()
        self.mapping = nn.Sequential(nn.Linear(latent, latent), nn.LeakyReLU(0.2))
        self.generator = nn.Sequential(nn.Linear(latent, 32), nn.ReLU(), nn.Linear(32, img))
        self.encoder = nn.Sequential(nn.Linear(img, 32), nn.ReLU(), nn.Linear(32, latent))
        self.discriminator = nn.Sequential(nn.Linear(img, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.latent = latent

    def forward(self, real_img, mode):
        if mode == "G":
            z = torch.randn(4, self.latent)
            stylecode = self.mapping(z)
            fake_img = self.generator(stylecode)
            fake_pred = self.discriminator(fake_img)
            adv_loss = F.softplus(-fake_pred)
            fake_stylecode = self.encoder(fake_img)
            w_rec_loss = F.mse_loss(stylecode, fake_stylecode, reduction='none').mean(1)
            return adv_loss, w_rec_loss, stylecode


parser = argparse.ArgumentParser()
parser.add_argument('--lambda_adv_loss', type=float, default=1.0)
parser.add_argument('--lambda_w_rec_loss', type=float, default=1.0)
args = parser.parse_args([])

model = Model()
g_optim = torch.optim.Adam(list(model.mapping.parameters()) + list(model.generator.parameters()), lr=2e-3)
e_optim = torch.optim.Adam(model.encoder.parameters(), lr=2e-3)

for i in range(3):
    adv_loss, w_rec_loss, stylecode = model(None, "G")
    adv_loss = adv_loss.mean()
    w_rec_loss = w_rec_loss.mean()
    g_loss = adv_loss * args.lambda_adv_loss

    g_optim.zero_grad()
    e_optim.zero_grad()
    g_loss.backward()
    (w_rec_loss * args.lambda_w_rec_loss).backward()
    g_optim.step()
    e_optim.step()
    print(i, g_loss.item(), w_rec_loss.item())
