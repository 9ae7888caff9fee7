# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor
torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self) -> None:
        super(Generator, self).__init__()
        self.conv_block1 = nn.Sequential(nn.Conv2d(3, 16, (9, 9), (1, 1), (4, 4)), nn.PReLU())
        self.trunk = nn.Sequential(nn.Conv2d(16, 16, (3, 3), (1, 1), (1, 1), bias=False), nn.BatchNorm2d(16))
        self.upsampling = nn.Sequential(
            nn.Conv2d(16, 64, (3, 3), (1, 1), (1, 1)), nn.PixelShuffle(2), nn.PReLU(),
            nn.Conv2d(16, 64, (3, 3), (1, 1), (1, 1)), nn.PixelShuffle(2), nn.PReLU(),
        )
        self.conv_block3 = nn.Conv2d(16, 3, (9, 9), (1, 1), (4, 4))

    def forward(self, x: Tensor) -> Tensor:
        out1 = self.conv_block1(x)
        out = self.trunk(out1) + out1
        out = self.upsampling(out)
        return torch.tanh(self.conv_block3(out))


class Discriminator(nn.Module):
    def __init__(self, image_size: int = 32) -> None:
        super(Discriminator, self).__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, (3, 3), (1, 1), (1, 1), bias=True), nn.LeakyReLU(0.2, True),
            nn.Conv2d(16, 16, (3, 3), (2, 2), (1, 1), bias=False), nn.BatchNorm2d(16), nn.LeakyReLU(0.2, True),
        )
        self.classifier = nn.Sequential(nn.Linear(16 * (image_size // 2) ** 2, 32), nn.LeakyReLU(0.2, True),
                                        nn.Linear(32, 1), nn.Sigmoid())

    def forward(self, x: Tensor) -> Tensor:
        out = self.features(x)
        out = torch.flatten(out, 1)
        return self.classifier(out)


class PerceptualLoss(nn.Module):
    def __init__(self) -> None:
        super(PerceptualLoss, self).__init__()
        # stands in for the pretrained VGG19 features[:36] the repo loads
        self.feature_extractor = nn.Sequential(nn.Conv2d(3, 8, 3, 1, 1), nn.ReLU(), nn.Conv2d(8, 8, 3, 1, 1))
        # Freeze model parameters.
        for parameters in self.feature_extractor.parameters():
            parameters.requires_grad = False
        self.register_buffer("mean", torch.Tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))
        self.register_buffer("std", torch.Tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1))

    def forward(self, sr: Tensor, hr: Tensor) -> Tensor:
        sr = (sr - self.mean) / self.std
        hr = (hr - self.mean) / self.std
        return F.mse_loss(self.feature_extractor(sr), self.feature_extractor(hr))
# %%
device = torch.device("cpu")
image_size = 32
batch_size = 4

discriminator = Discriminator(image_size).to(device)
generator = Generator().to(device)

pixel_criterion = nn.MSELoss().to(device)
perceptual_criterion = PerceptualLoss().to(device)
adversarial_criterion = nn.BCELoss().to(device)
perceptual_weight = 6e-03
adversarial_weight = 1e-03

d_optimizer = torch.optim.Adam(discriminator.parameters(), 1e-4)
g_optimizer = torch.optim.Adam(generator.parameters(), 1e-4)

discriminator.train()
generator.train()
# one (lr, hr) batch instead of the ImageNet dataloader
lr = torch.rand(batch_size, 3, image_size // 4, image_size // 4).to(device)
hr = torch.rand(batch_size, 3, image_size, image_size).to(device)
label_size = lr.size(0)
real_label = torch.full([label_size, 1], 1.0, dtype=lr.dtype, device=device)
fake_label = torch.full([label_size, 1], 0.0, dtype=lr.dtype, device=device)
# %%
##############################################
# (1) Update D network.
##############################################
# Set the discriminator gradient to 0.
discriminator.zero_grad()

# Train real sample with discriminator.
hr_output = discriminator(hr)
d_loss_hr = adversarial_criterion(hr_output, real_label)
d_loss_hr.backward()

# Generate a super-resolution image.
sr = generator(lr)

# Train fake sample with discriminator.
sr_output = discriminator(sr.detach())
d_loss_sr = adversarial_criterion(sr_output, fake_label)
d_loss_sr.backward()

# Update the discriminator weights.
d_loss = d_loss_hr + d_loss_sr
d_optimizer.step()
d_hr = hr_output.mean().item()
d_sr1 = sr_output.mean().item()
print(f"D Loss: {d_loss.item():.6f} D(HR): {d_hr:.6f} D(SR1): {d_sr1:.6f}")
# %%
##############################################
# (2) Update G network.
##############################################
# Set the generator gradient to 0.
generator.zero_grad()

# Train fake sample with generator.
sr_output = discriminator(sr)
perceptual_loss = perceptual_weight * perceptual_criterion(sr, hr.detach())
adversarial_loss = adversarial_weight * adversarial_criterion(sr_output, real_label)

# Update the generator weights.
g_loss = perceptual_loss + adversarial_loss
g_loss.backward()
g_optimizer.step()
d_sr2 = sr_output.mean().item()
print(f"G Loss: {g_loss.item():.6f} D(SR2): {d_sr2:.6f}")
