# cause: no_grad_fn
# line: 15
# why: The Dice loss is rebuilt from dice.item() with torch.tensor(...), giving a fresh constant tensor with no grad_fn.
import torch
import torch.nn as nn

torch.manual_seed(0)


def dice_loss(logits, target, eps=1e-6):
    prob = torch.sigmoid(logits)
    inter = (prob * target).sum()
    union = prob.sum() + target.sum()
    dice = (2 * inter + eps) / (union + eps)
    return torch.tensor(1.0 - dice.item())


seg_net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
opt = torch.optim.Adam(seg_net.parameters(), lr=1e-3)
imgs = torch.rand(4, 1, 16, 16)
masks = (imgs > 0.6).float()

for epoch in range(3):
    loss = dice_loss(seg_net(imgs), masks)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
