# cause: non_scalar_backward
# line: 25
# why: The custom loss reduces only over dim=1, leaving a per-sample vector on which backward() is called.
import torch
import torch.nn as nn

torch.manual_seed(0)


class DiceLoss(nn.Module):
    def forward(self, logits, target):
        p = torch.sigmoid(logits)
        inter = (p * target).sum(dim=1)
        return 1 - (2 * inter + 1) / (p.sum(dim=1) + target.sum(dim=1) + 1)


seg = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))
dice = DiceLoss()
opt = torch.optim.Adam(seg.parameters(), lr=1e-3)
for step in range(3):
    img = torch.randn(4, 16)
    mask = (img > 0.5).float()
    loss = dice(seg(img), mask)
    opt.zero_grad()
    loss.backward()
    opt.step()
