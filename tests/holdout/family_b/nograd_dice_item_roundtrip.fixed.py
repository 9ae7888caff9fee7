import torch
import torch.nn as nn

torch.manual_seed(0)


def dice_score(logits, target, eps=1.0):
    probs = torch.sigmoid(logits)
    inter = (probs * target).sum()
    return (2 * inter + eps) / (probs.sum() + target.sum() + eps)


model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 1, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
img = torch.randn(2, 1, 8, 8)
mask = (torch.rand(2, 1, 8, 8) > 0.5).float()

for step in range(3):
    logits = model(img)
    loss = 1.0 - dice_score(logits, mask)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
