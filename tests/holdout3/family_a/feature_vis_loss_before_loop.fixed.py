import torch
import torch.nn as nn

torch.manual_seed(0)

classifier = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10),
)
for p in classifier.parameters():
    p.requires_grad_(False)

target_class = 3
img = (0.01 * torch.randn(1, 3, 16, 16)).requires_grad_()
opt = torch.optim.Adam([img], lr=0.05)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=20)


def tv(x):
    return (x[..., 1:, :] - x[..., :-1, :]).abs().mean() + (x[..., :, 1:] - x[..., :, :-1]).abs().mean()


step = 0
while step < 20:
    loss = -classifier(img)[0, target_class] + 0.05 * tv(img) + 1e-3 * img.pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 5 == 0:
        print(step, loss.item())
    step += 1
