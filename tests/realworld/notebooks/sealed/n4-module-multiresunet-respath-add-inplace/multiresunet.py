"""MultiResUNet (condensed from the repository's multiresunet.py: same blocks, two levels)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Conv2d_batchnorm(nn.Module):
    def __init__(self, input_features, num_of_filters, kernel_size=(2, 2), stride=(1, 1), activation='relu', padding=0):
        super().__init__()
        self.activation = activation
        self.conv1 = nn.Conv2d(input_features, num_of_filters, kernel_size=kernel_size, stride=stride, padding=padding)
        self.batchnorm = nn.BatchNorm2d(num_of_filters, affine=False)

    def forward(self, x):
        x = self.conv1(x)
        x = self.batchnorm(x)
        if self.activation == 'relu':
            return F.relu(x)
        return x


class Multiresblock(nn.Module):
    def __init__(self, input_features, corresponding_unet_filters, alpha=1.67):
        super().__init__()
        W = corresponding_unet_filters * alpha
        f3, f5, f7 = int(W * 0.167), int(W * 0.333), int(W * 0.5)
        self.out_features = f3 + f5 + f7
        self.conv2d_bn_1x1 = Conv2d_batchnorm(input_features, self.out_features, kernel_size=(1, 1), activation='None')
        self.conv2d_bn_3x3 = Conv2d_batchnorm(input_features, f3, kernel_size=(3, 3), padding=1)
        self.conv2d_bn_5x5 = Conv2d_batchnorm(f3, f5, kernel_size=(3, 3), padding=1)
        self.conv2d_bn_7x7 = Conv2d_batchnorm(f5, f7, kernel_size=(3, 3), padding=1)
        self.batch_norm1 = nn.BatchNorm2d(self.out_features, affine=False)

    def forward(self, x):
        temp = self.conv2d_bn_1x1(x)
        a = self.conv2d_bn_3x3(x)
        b = self.conv2d_bn_5x5(a)
        c = self.conv2d_bn_7x7(b)
        x = torch.cat([a, b, c], axis=1)
        x = self.batch_norm1(x)
        x += temp
        x = self.batch_norm1(x)
        return x


class Respath(nn.Module):
    def __init__(self, input_features, filters, respath_length):
        super().__init__()
        self.respath_length = respath_length
        self.conv2d_bn_1x1 = Conv2d_batchnorm(input_features, filters, kernel_size=(1, 1), activation='None')
        self.conv2d_bn_3x3 = Conv2d_batchnorm(input_features, filters, kernel_size=(3, 3), padding=1)
        self.conv2d_bn_1x1_common = Conv2d_batchnorm(filters, filters, kernel_size=(1, 1), activation='None')
        self.conv2d_bn_3x3_common = Conv2d_batchnorm(filters, filters, kernel_size=(3, 3), padding=1)
        self.batch_norm1 = nn.BatchNorm2d(filters, affine=False)

    def forward(self, x):
        shortcut = self.conv2d_bn_1x1(x)
        x = self.conv2d_bn_3x3(x)
        x += shortcut
        x = F.relu(x)
        x = self.batch_norm1(x)
        if self.respath_length > 1:
            for i in range(self.respath_length):
                shortcut = self.conv2d_bn_1x1_common(x)
                x = self.conv2d_bn_3x3_common(x)
                x += shortcut
                x = F.relu(x)
                x = self.batch_norm1(x)
        return x


class MultiResUnet(nn.Module):
    def __init__(self, channels, filters=32, nclasses=1):
        super().__init__()
        self.nclasses = nclasses
        self.multiresblock1 = Multiresblock(channels, filters)
        self.pool1 = nn.MaxPool2d(2, stride=2)
        self.respath1 = Respath(self.multiresblock1.out_features, filters, respath_length=2)
        self.multiresblock2 = Multiresblock(self.multiresblock1.out_features, filters * 2)
        self.upsample3 = nn.ConvTranspose2d(self.multiresblock2.out_features, filters, kernel_size=(2, 2), stride=(2, 2))
        self.multiresblock3 = Multiresblock(filters * 2, filters)
        self.conv_final = Conv2d_batchnorm(self.multiresblock3.out_features, nclasses, kernel_size=(1, 1), activation='None')

    def forward(self, x):
        x_multires1 = self.multiresblock1(x)
        x_pool1 = self.pool1(x_multires1)
        x_multires1 = self.respath1(x_multires1)
        x_multires2 = self.multiresblock2(x_pool1)
        up3 = torch.cat([self.upsample3(x_multires2), x_multires1], axis=1)
        x_multires3 = self.multiresblock3(up3)
        if self.nclasses > 1:
            return self.conv_final(x_multires3)
        return torch.sigmoid(self.conv_final(x_multires3))
