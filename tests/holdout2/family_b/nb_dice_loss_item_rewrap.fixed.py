import torch
import torch.nn as nn

torch.manual_seed(0)


def soft_dice_loss(logits, target, eps=1.0):
    probs = torch.sigmoid(logits)
    dice = (2 * (probs * target).sum() + eps) / (probs.sum() + target.sum() + eps)
    return 1.0 - dice


net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
images = torch.rand(4, 1, 16, 16)
masks = (images > 0.6).float()
for epoch in range(2):
    loss = soft_dice_loss(net(images), masks)
    opt.zero_grad()
    loss.backward()
    opt.step()
