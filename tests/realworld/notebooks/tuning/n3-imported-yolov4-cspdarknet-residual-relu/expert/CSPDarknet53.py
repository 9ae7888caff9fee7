import torch
import torch.nn as nn

activate_name = {
    "relu": nn.ReLU,
    "leaky": nn.LeakyReLU,
    "linear": nn.Identity,
}


class Convolutional(nn.Module):
    def __init__(self, filters_in, filters_out, kernel_size, stride=1, activate="relu"):
        super(Convolutional, self).__init__()
        self.conv = nn.Conv2d(filters_in, filters_out, kernel_size, stride, kernel_size // 2, bias=False)
        self.bn = nn.BatchNorm2d(filters_out)
        self.activate = activate_name[activate](inplace=True) if activate != "linear" else nn.Identity()

    def forward(self, x):
        return self.activate(self.bn(self.conv(x)))


class CSPBlock(nn.Module):
    def __init__(self, in_channels, out_channels, hidden_channels=None, residual_activation="linear", activate="relu"):
        super(CSPBlock, self).__init__()
        if hidden_channels is None:
            hidden_channels = out_channels
        self.block = nn.Sequential(
            Convolutional(in_channels, hidden_channels, 1, activate=activate),
            Convolutional(hidden_channels, out_channels, 3, activate=activate),
        )
        self.activation = activate_name[residual_activation]()

    def forward(self, x):
        residual = x
        out = self.block(x)
        out = out + residual
        return out


class CSPStage(nn.Module):
    def __init__(self, in_channels, out_channels, num_blocks, activate="relu"):
        super(CSPStage, self).__init__()
        self.downsample_conv = Convolutional(in_channels, out_channels, 3, stride=2, activate=activate)
        self.blocks = nn.Sequential(*[CSPBlock(out_channels, out_channels, activate=activate) for _ in range(num_blocks)])

    def forward(self, x):
        x = self.downsample_conv(x)
        return self.blocks(x)


class CSPDarknet53(nn.Module):
    def __init__(self, stem_channels=8, activate="relu"):
        super(CSPDarknet53, self).__init__()
        self.stem_conv = Convolutional(3, stem_channels, 3, activate=activate)
        self.stages = nn.Sequential(
            CSPStage(stem_channels, 16, 1, activate=activate),
            CSPStage(16, 16, 2, activate=activate),
        )

    def forward(self, x):
        return self.stages(self.stem_conv(x))
