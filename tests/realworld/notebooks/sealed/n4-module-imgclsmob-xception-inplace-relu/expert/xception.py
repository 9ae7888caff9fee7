"""Xception units in the style of osmr/imgclsmob pytorch/pytorchcv/models/xception.py (condensed)."""
import torch.nn as nn


class DwsConv(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, padding=1):
        super().__init__()
        self.dw_conv = nn.Conv2d(in_channels, in_channels, kernel_size, stride, padding, groups=in_channels, bias=False)
        self.pw_conv = nn.Conv2d(in_channels, out_channels, 1, bias=False)

    def forward(self, x):
        return self.pw_conv(self.dw_conv(x))


class DwsConvBlock(nn.Module):
    def __init__(self, in_channels, out_channels, activate):
        super().__init__()
        self.activate = activate
        if self.activate:
            self.activ = nn.ReLU(inplace=False)
        self.conv = DwsConv(in_channels, out_channels)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x):
        if self.activate:
            x = self.activ(x)
        x = self.conv(x)
        x = self.bn(x)
        return x


class XceptionUnit(nn.Module):
    def __init__(self, in_channels, out_channels, stride, reps, start_with_relu=True, grow_first=True):
        super().__init__()
        self.resize_identity = (in_channels != out_channels) or (stride != 1)
        if self.resize_identity:
            self.identity_conv = nn.Sequential(nn.Conv2d(in_channels, out_channels, 1, stride, bias=False),
                                               nn.BatchNorm2d(out_channels))
        self.body = nn.Sequential()
        for i in range(reps):
            if (grow_first and (i == 0)) or ((not grow_first) and (i == reps - 1)):
                in_channels_i, out_channels_i = in_channels, out_channels
            elif grow_first:
                in_channels_i, out_channels_i = out_channels, out_channels
            else:
                in_channels_i, out_channels_i = in_channels, in_channels
            activate = start_with_relu if (i == 0) else True
            self.body.add_module("block{}".format(i + 1), DwsConvBlock(in_channels_i, out_channels_i, activate))
        if stride != 1:
            self.body.add_module("pool", nn.MaxPool2d(3, stride, 1))

    def forward(self, x):
        if self.resize_identity:
            identity = self.identity_conv(x)
        else:
            identity = x
        x = self.body(x)
        x = x + identity
        return x


class Xception(nn.Module):
    def __init__(self, in_channels=3, num_classes=10):
        super().__init__()
        self.init_block = nn.Sequential(nn.Conv2d(in_channels, 8, 3, 2, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU())
        self.unit1 = XceptionUnit(8, 16, stride=2, reps=2, start_with_relu=False)
        self.unit2 = XceptionUnit(16, 32, stride=2, reps=2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.output = nn.Linear(32, num_classes)

    def forward(self, x):
        x = self.unit2(self.unit1(self.init_block(x)))
        return self.output(self.pool(x).flatten(1))
