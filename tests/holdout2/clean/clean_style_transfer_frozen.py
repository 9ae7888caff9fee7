import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

extractor = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
extractor.requires_grad_(False)


def gram(f):
    b, c, h, w = f.shape
    f = f.view(b * c, h * w)
    return f @ f.t() / (c * h * w)


style_img = torch.rand(1, 3, 16, 16)
with torch.no_grad():
    style_gram = gram(extractor(style_img))
image = torch.rand(1, 3, 16, 16, requires_grad=True)
opt = torch.optim.LBFGS([image], lr=0.5, max_iter=3)


def closure():
    opt.zero_grad()
    loss = F.mse_loss(gram(extractor(image)), style_gram)
    loss.backward()
    return loss


for step in range(2):
    opt.step(closure)
