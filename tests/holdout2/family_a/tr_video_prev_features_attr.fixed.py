import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TemporalSmoothness:
    """Penalise feature jitter between consecutive video frames."""

    def __init__(self, weight=0.1):
        self.weight = weight
        self.prev = None

    def __call__(self, feats):
        if self.prev is None:
            reg = feats.new_zeros(())
        else:
            reg = self.weight * (feats - self.prev).pow(2).mean()
        self.prev = feats.detach()
        return reg


class FrameSegmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.classifier = nn.Conv2d(8, 3, 1)

    def forward(self, frame):
        feats = self.backbone(frame)
        return feats, self.classifier(feats)


frames = torch.rand(6, 1, 3, 12, 12)
masks = torch.randint(0, 3, (6, 1, 12, 12))
seg = FrameSegmenter()
smooth = TemporalSmoothness()
opt = torch.optim.Adam(seg.parameters(), lr=1e-3)
for t in range(frames.shape[0]):
    feats, logits = seg(frames[t])
    loss = F.cross_entropy(logits, masks[t]) + smooth(feats)
    opt.zero_grad()
    loss.backward()
    opt.step()
