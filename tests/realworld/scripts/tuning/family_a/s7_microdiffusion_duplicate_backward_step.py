# source: https://github.com/UCSC-VLAA/MicroDiffusion/issues/2
# style: diffusion
# cause: double_backward
# line: 122
# expert: After the per-slice diffusion loss is backpropagated and the optimizer stepped, a leftover second `loss.backward(); optimizer.step()` pair runs on the same, already-freed graph; the maintainer fixed train.py (commit b96cb61) by deleting the duplicated backward/step.
import itertools

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.device("cpu")


class ConditionalEmbedding(nn.Module):
    def __init__(self, num_labels: int, d_model: int, dim: int):
        super().__init__()
        self.condEmbedding = nn.Sequential(
            nn.Linear(num_labels, d_model), nn.Linear(d_model, dim), nn.SiLU(), nn.Linear(dim, dim))

    def forward(self, t):
        return self.condEmbedding(t)


class INREmbedding(nn.Module):
    def __init__(self, feature_emb=8):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU())
        self.fc = nn.Linear(4 * 8 * 8, feature_emb)

    def forward(self, x):
        return self.fc(self.conv1(x).flatten(1))


class TinyUNet(nn.Module):
    def __init__(self, cdim=16):
        super().__init__()
        self.inp = nn.Conv2d(3, 8, 3, padding=1)
        self.cond = nn.Linear(cdim, 8)
        self.out = nn.Conv2d(8, 3, 3, padding=1)

    def forward(self, x, t, cemb):
        h = F.silu(self.inp(x) + self.cond(cemb)[:, :, None, None])
        return self.out(h)


class GaussianDiffusion(nn.Module):
    def __init__(self, dtype, model, betas: np.ndarray, device):
        super().__init__()
        self.dtype, self.model, self.device = dtype, model, device
        self.betas = torch.tensor(betas, dtype=dtype)
        self.T = len(betas)
        self.alphas_bar = torch.cumprod(1 - self.betas, dim=0)

    @staticmethod
    def _extract(coef, t, x_shape):
        return coef[t].reshape(-1, *([1] * (len(x_shape) - 1)))

    def q_sample(self, x_0, t):
        eps = torch.randn_like(x_0)
        a = self._extract(self.alphas_bar, t, x_0.shape)
        return a.sqrt() * x_0 + (1 - a).sqrt() * eps, eps

    def trainloss(self, x_inter, x_0, cembs):
        t = torch.randint(self.T, size=(x_0.shape[0],), device=self.device)
        x_inter = torch.mean(torch.stack(x_inter).squeeze(dim=1), dim=0).unsqueeze(0)
        cemb = torch.mean(torch.stack(cembs).squeeze(dim=1), dim=0).unsqueeze(0)
        x_0 = 0.1 * x_0 + 0.9 * x_inter
        x_t, eps = self.q_sample(x_0, t)
        pred_eps = self.model(x_t, t, cemb=cemb)
        loss = F.mse_loss(pred_eps, eps, reduction="mean")
        return loss, pred_eps


def encode_position(z):
    return torch.cat([torch.sin(z * 2 ** k) for k in range(4)], dim=-1)


H = W = 8
N_imgs = 12
imgs = torch.rand(N_imgs, H, W, 3)
model = nn.Linear(4, 3)  # stand-in for the INR renderer
total_pos_enc = torch.rand(N_imgs, H, W, 4)

net = TinyUNet(cdim=16)
cemblayer = ConditionalEmbedding(4, 8, 8)
inremblayer = INREmbedding(feature_emb=8)
diffusion = GaussianDiffusion(torch.float32, net, np.linspace(1e-4, 0.02, 50), device)

optimizer = torch.optim.AdamW(
    itertools.chain(diffusion.model.parameters(), cemblayer.parameters(), inremblayer.parameters()),
    lr=1e-3, weight_decay=1e-4)

for epc in range(2):
    diffusion.model.train()
    cemblayer.train()
    inremblayer.train()
    for z_space in range(3, N_imgs - 3, 6):
        z = 2 * z_space / N_imgs - 1.0
        rendered = model(total_pos_enc[z_space - 3:z_space + 3])  # (6, H, W, 3)
        img = imgs[z_space - 3:z_space + 3].mean(dim=0).permute(2, 0, 1).unsqueeze(0)

        optimizer.zero_grad()
        x_0 = img.to(device)
        cembs, inters = [], []
        inr_feature = inremblayer(x_0)
        for i in range(-3, 3):
            z_tmp = z + i * (2.0 / N_imgs)
            lab = encode_position(torch.tensor([[z_tmp]]).float())
            cemb = cemblayer(lab)
            inter = rendered[i + 3].permute(2, 0, 1)
            cembs.append(torch.cat([cemb, inr_feature], 1))
            inters.append(inter)
        loss, generated = diffusion.trainloss(inters, x_0, cembs=cembs)
        loss.backward()
        optimizer.step()

        print("Total:{:4f}".format(loss.item()))

        loss.backward()
        optimizer.step()
