# cause: computed_before_loop
# line: 34
# why: The style Gram matrices are computed once before the loop through an unfrozen extractor, so every step's backward re-enters that graph, freed after the first step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FeatureExtractor(nn.Module):
    """Stands in for a pretrained VGG slice."""

    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AvgPool2d(2))

    def forward(self, x):
        f1 = self.block1(x)
        f2 = self.block2(f1)
        return [f1, f2]


def gram(f):
    b, c, h, w = f.shape
    f = f.view(b * c, h * w)
    return f @ f.t() / (c * h * w)


extractor = FeatureExtractor().eval()
style_img = torch.rand(1, 3, 16, 16)
content_img = torch.rand(1, 3, 16, 16)
style_grams = [gram(f) for f in extractor(style_img)]
content_target = extractor(content_img)[-1].detach()

image = content_img.clone().requires_grad_(True)
opt = torch.optim.Adam([image], lr=0.02)
for step in range(5):
    opt.zero_grad()
    feats = extractor(image)
    style_loss = sum(F.mse_loss(gram(f), g) for f, g in zip(feats, style_grams))
    content_loss = F.mse_loss(feats[-1], content_target)
    loss = 1e3 * style_loss + content_loss
    loss.backward()
    opt.step()
    with torch.no_grad():
        image.clamp_(0, 1)
