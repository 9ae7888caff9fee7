"""Stand-in for torchvision (not installed here): transforms.Compose/ToTensor/Normalize/Lambda
and models.vgg19, a VGG-19 feature stack with the same layer layout but few channels and
seeded random weights instead of the ImageNet ones."""
import numpy as np
import torch
import torch.nn as nn


class transforms:
    class Compose:
        def __init__(self, ts):
            self.transforms = ts

        def __call__(self, img):
            for t in self.transforms:
                img = t(img)
            return img

    class ToTensor:
        def __call__(self, pic):
            a = pic.array if hasattr(pic, "array") else np.asarray(pic)
            return torch.from_numpy(np.ascontiguousarray(a)).permute(2, 0, 1).contiguous().float().div(255)

    class Normalize:
        def __init__(self, mean, std):
            self.mean, self.std = torch.tensor(mean).view(-1, 1, 1), torch.tensor(std).view(-1, 1, 1)

        def __call__(self, x):
            return (x - self.mean) / self.std

    class Lambda:
        def __init__(self, lambd):
            self.lambd = lambd

        def __call__(self, x):
            return self.lambd(x)


class _VGG(nn.Module):
    def __init__(self, cfg=(8, 8, 'M', 16, 16, 'M', 16, 16, 16, 16, 'M', 32, 32, 32, 32, 'M', 32, 32, 32, 32, 'M')):
        super().__init__()
        g = torch.Generator().manual_seed(19)
        layers, in_c = [], 3
        for v in cfg:
            if v == 'M':
                layers.append(nn.MaxPool2d(2, 2))
            else:
                conv = nn.Conv2d(in_c, v, 3, padding=1)
                with torch.no_grad():
                    conv.weight.copy_(torch.randn(conv.weight.shape, generator=g) * (2.0 / (9 * in_c)) ** 0.5)
                    conv.bias.zero_()
                layers += [conv, nn.ReLU(inplace=True)]
                in_c = v
        self.features = nn.Sequential(*layers)


def vgg19(pretrained=False):
    return _VGG()
