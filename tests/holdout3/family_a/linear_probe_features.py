# cause: computed_before_loop
# line: 27
# why: feats is computed once before the loop by a backbone whose parameters still require grad, so every probe step backpropagates into the same backbone graph, freed after the first step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_backbone():
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
    )


backbone = make_backbone()  # pretend this was loaded from a checkpoint
backbone.eval()
images = torch.randn(64, 3, 16, 16)
labels = torch.randint(0, 5, (64,))

probe = nn.Linear(16, 5)
opt = torch.optim.SGD(probe.parameters(), lr=0.1, momentum=0.9)

feats = F.normalize(backbone(images), dim=1)
for epoch in range(3):
    perm = torch.randperm(64)
    for i in range(0, 64, 16):
        idx = perm[i:i + 16]
        loss = F.cross_entropy(probe(feats[idx]), labels[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    acc = (probe(feats).argmax(1) == labels).float().mean().item()
    print(f"epoch {epoch} acc {acc:.3f}")
