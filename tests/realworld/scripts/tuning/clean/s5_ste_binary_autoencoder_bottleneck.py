# source: https://www.hassanaskary.com/python/pytorch/deep%20learning/2020/09/19/intuitive-explanation-of-straight-through-estimators.html
# style: quant
# expert: correct: the bottleneck is binarized with a custom torch.autograd.Function whose forward thresholds (input > 0) and whose backward passes the incoming gradient straight through (clamped by hardtanh), so the encoder still receives gradients; each step zeroes grads, recomputes the forward and calls backward once
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class STEFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        return (input > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        return F.hardtanh(grad_output)


class StraightThroughEstimator(nn.Module):
    def __init__(self):
        super(StraightThroughEstimator, self).__init__()

    def forward(self, x):
        x = STEFunction.apply(x)
        return x


class Autoencoder(nn.Module):
    def __init__(self):
        super(Autoencoder, self).__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 8, 4, stride=2, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.Conv2d(8, 16, 4, stride=2, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.Conv2d(16, 32, 7, stride=1, padding=0),
            nn.Tanh(),
            StraightThroughEstimator(),
        )
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(32, 16, 7, stride=1, padding=0),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.ConvTranspose2d(8, 1, 4, stride=2, padding=1),
            nn.Tanh(),
        )

    def forward(self, x):
        encoded = self.encoder(x)
        decoded = self.decoder(encoded)
        return decoded, encoded


# synthetic stand-in for normalised MNIST digits in [-1, 1]
train_loader = [torch.rand(16, 1, 28, 28) * 2 - 1 for _ in range(6)]

net = Autoencoder()
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)

for epoch in range(2):
    running_loss = 0.0
    for img in train_loader:
        optimizer.zero_grad()
        output, code = net(img)
        loss = criterion(output, img)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    print('epoch', epoch, 'loss', running_loss / len(train_loader), 'code bits on', code.mean().item())
