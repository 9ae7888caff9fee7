# source: https://github.com/iMED-Lab/ER-Net/pull/3
# style: vision
# cause: inplace_modified_saved_tensor
# line: 27
# expert: replace the in-place residual add `out += residual` with `out = out + residual` (the ReLU backward needs its unmodified output)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResEncoder(nn.Module):
    def __init__(self, in_channels, out_channels):
        super(ResEncoder, self).__init__()
        self.conv1 = nn.Conv3d(in_channels, out_channels, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm3d(out_channels)
        self.conv2 = nn.Conv3d(out_channels, out_channels, kernel_size=3, padding=1)
        self.bn2 = nn.BatchNorm3d(out_channels)
        self.relu = nn.ReLU(inplace=False)
        self.conv1x1 = nn.Conv3d(in_channels, out_channels, kernel_size=1)

    def forward(self, x):
        residual = self.conv1x1(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out += residual
        out = self.relu(out)
        return out


class ER_Net(nn.Module):
    def __init__(self, classes=1, channels=1):
        super(ER_Net, self).__init__()
        self.enc_input = ResEncoder(channels, 4)
        self.encoder1 = ResEncoder(4, 8)
        self.final = nn.Conv3d(8, classes, kernel_size=1)

    def forward(self, x):
        enc_input = self.enc_input(x)
        down1 = F.max_pool3d(enc_input, 2)
        enc1 = self.encoder1(down1)
        up = F.interpolate(enc1, scale_factor=2, mode='trilinear', align_corners=False)
        return torch.sigmoid(self.final(up))


net = ER_Net()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
criterion = nn.BCELoss()
for it in range(2):
    image = torch.rand(2, 1, 8, 8, 8)
    label = (torch.rand(2, 1, 8, 8, 8) > 0.5).float()
    pred = net(image)
    loss = criterion(pred, label)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(it, loss.item())
