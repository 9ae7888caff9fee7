"""Stand-in for torchvision (no downloads here): `models.vgg19(pretrained=True).features` is a
small, seeded stack with VGG's layer types and order (Conv2d, ReLU(inplace=True), MaxPool2d), and
`transforms` only offers what the notebook's image helpers call."""
import types

import torch
import torch.nn as nn


def _vgg19(pretrained=False):
    with torch.random.fork_rng():
        torch.manual_seed(19)
        features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(inplace=True),
            nn.MaxPool2d(2, 2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(inplace=True),
            nn.MaxPool2d(2, 2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(inplace=True),
        )
    return types.SimpleNamespace(features=features)


models = types.SimpleNamespace(vgg19=_vgg19)


class _ToPILImage:
    def __call__(self, tensor):
        return tensor


transforms = types.SimpleNamespace(ToPILImage=_ToPILImage)
