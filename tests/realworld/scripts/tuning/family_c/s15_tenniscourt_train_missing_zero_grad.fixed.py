# source: https://github.com/yastrebksv/TennisCourtDetector/issues/7 (base_trainer.py train() as it was before commit e5cd4f1 "added optimizer.zero_grad", the BallTrackerNet of tracknet.py with all channel widths divided by 16, random 3x32x32 images and 15 keypoint heatmaps instead of courtDataset, no tensorboard)
# style: vision
# cause: grads_not_zeroed
# line: 106
# expert: train() calls loss.backward() and optimizer.step() for every batch but never clears the gradients, so each step applies the sum of the current and all previous batches' gradients. The reporter pointed out the missing optimizer.zero_grad() and the author fixed it by calling optimizer.zero_grad() after optimizer.step() in every iteration.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)


class ConvBlock(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size=3, pad=1, stride=1, bias=True):
        super().__init__()
        self.block = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=pad, bias=bias),
            nn.ReLU(),
            nn.BatchNorm2d(out_channels)
        )

    def forward(self, x):
        return self.block(x)


class BallTrackerNet(nn.Module):
    def __init__(self, out_channels=14):
        super().__init__()
        self.out_channels = out_channels

        self.conv1 = ConvBlock(in_channels=3, out_channels=4)
        self.conv2 = ConvBlock(in_channels=4, out_channels=4)
        self.pool1 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.conv3 = ConvBlock(in_channels=4, out_channels=8)
        self.conv4 = ConvBlock(in_channels=8, out_channels=8)
        self.pool2 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.conv5 = ConvBlock(in_channels=8, out_channels=16)
        self.conv6 = ConvBlock(in_channels=16, out_channels=16)
        self.conv7 = ConvBlock(in_channels=16, out_channels=16)
        self.pool3 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.conv8 = ConvBlock(in_channels=16, out_channels=32)
        self.conv9 = ConvBlock(in_channels=32, out_channels=32)
        self.conv10 = ConvBlock(in_channels=32, out_channels=32)
        self.ups1 = nn.Upsample(scale_factor=2)
        self.conv11 = ConvBlock(in_channels=32, out_channels=16)
        self.conv12 = ConvBlock(in_channels=16, out_channels=16)
        self.conv13 = ConvBlock(in_channels=16, out_channels=16)
        self.ups2 = nn.Upsample(scale_factor=2)
        self.conv14 = ConvBlock(in_channels=16, out_channels=8)
        self.conv15 = ConvBlock(in_channels=8, out_channels=8)
        self.ups3 = nn.Upsample(scale_factor=2)
        self.conv16 = ConvBlock(in_channels=8, out_channels=4)
        self.conv17 = ConvBlock(in_channels=4, out_channels=4)
        self.conv18 = ConvBlock(in_channels=4, out_channels=self.out_channels)

        self._init_weights()

    def forward(self, x):
        x = self.conv1(x)
        x = self.conv2(x)
        x = self.pool1(x)
        x = self.conv3(x)
        x = self.conv4(x)
        x = self.pool2(x)
        x = self.conv5(x)
        x = self.conv6(x)
        x = self.conv7(x)
        x = self.pool3(x)
        x = self.conv8(x)
        x = self.conv9(x)
        x = self.conv10(x)
        x = self.ups1(x)
        x = self.conv11(x)
        x = self.conv12(x)
        x = self.conv13(x)
        x = self.ups2(x)
        x = self.conv14(x)
        x = self.conv15(x)
        x = self.ups3(x)
        x = self.conv16(x)
        x = self.conv17(x)
        x = self.conv18(x)
        return x

    def _init_weights(self):
        for module in self.modules():
            if isinstance(module, nn.Conv2d):
                nn.init.uniform_(module.weight, -0.05, 0.05)
                if module.bias is not None:
                    nn.init.constant_(module.bias, 0)


def train(model, train_loader, optimizer, criterion, device, epoch, max_iters=1000):
    model.train()
    losses = []
    max_iters = min(max_iters, len(train_loader))

    for iter_id, batch in enumerate(train_loader):
        out = model(batch[0].float().to(device))
        gt_hm_hp = batch[1].float().to(device)
        loss = criterion(F.sigmoid(out), gt_hm_hp)

        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print('train, epoch = {}, iter_id = {}/{}, loss = {}'.format(epoch, iter_id, max_iters, loss.item()))
        losses.append(loss.item())
        if iter_id > max_iters:
            break

    return np.mean(losses)


# random (image, heatmaps) batches stand in for courtDataset('train') + DataLoader(batch_size=2)
train_loader = [(torch.rand(2, 3, 32, 32), (torch.rand(2, 15, 32, 32) > 0.98).float()) for _ in range(4)]

model = BallTrackerNet(out_channels=15)
device = 'cpu'
model = model.to(device)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), 1e-5, betas=(0.9, 0.999), weight_decay=0)

for epoch in range(2):
    train_loss = train(model, train_loader, optimizer, criterion, device, epoch, 1000)
    print('epoch {}: train_loss = {:.6f}'.format(epoch, train_loss))
