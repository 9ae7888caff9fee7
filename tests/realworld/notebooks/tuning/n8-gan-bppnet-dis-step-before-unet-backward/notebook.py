# source: https://github.com/ayu-22/BPPNet-Back-Projected-Pyramid-Network/issues/6
# scenario: gan_multiloss
# cause: inplace_modified_saved_tensor
# root: cell 4 line 58
# expert: DU_Net.backward (cell 'Defining our model') steps dis_optimizer before unet_loss.backward(), but unet_loss was built in process() through self.discriminator(outputs), so the Adam step rewrites the discriminator weights that graph saved; as the maintainer answered, update the discriminator first and only then compute the generator (unet) loss and step it
# %%
import torch
import torch.nn as nn
import torch.optim as optim
import torch.nn.functional as F3
from math import exp
from collections import OrderedDict
torch.manual_seed(0)
# %%
# Defining our generator (UNet) -- two UNet passes instead of four, small widths
class UNet(nn.Module):

    def __init__(self, in_channels=3, out_channels=3, init_features=4):
        super(UNet, self).__init__()

        features = init_features
        self.encoder1 = UNet._block(in_channels, features, name="enc1")
        self.pool1 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.encoder2 = UNet._block(features, features * 2, name="enc2")
        self.pool2 = nn.MaxPool2d(kernel_size=2, stride=2)

        self.bottleneck = UNet._block(features * 2, features * 4, name="bottleneck")

        self.upconv2 = nn.ConvTranspose2d(features * 4, features * 2, kernel_size=2, stride=2)
        self.decoder2 = UNet._block((features * 2) * 2, features * 2, name="dec2")
        self.upconv1 = nn.ConvTranspose2d(features * 2, features, kernel_size=2, stride=2)
        self.decoder1 = UNet._block(features * 2, features, name="dec1")

        self.conv = nn.Conv2d(in_channels=features, out_channels=out_channels, kernel_size=1)
        self.conv_1 = nn.Conv2d(in_channels=24, out_channels=out_channels, kernel_size=1)

        self.pyramid_3 = nn.Sequential(
            nn.Conv2d(in_channels=6, out_channels=8, kernel_size=3, padding=1),
            nn.InstanceNorm2d(8, track_running_stats=False),
            nn.ReLU(True)
        )
        self.pyramid_5 = nn.Sequential(
            nn.Conv2d(in_channels=6, out_channels=8, kernel_size=5, padding=2),
            nn.InstanceNorm2d(8, track_running_stats=False),
            nn.ReLU(True)
        )
        self.pyramid_7 = nn.Sequential(
            nn.Conv2d(in_channels=6, out_channels=8, kernel_size=7, padding=3),
            nn.InstanceNorm2d(8, track_running_stats=False),
            nn.ReLU(True)
        )

    def forward(self, x):
        #block1
        enc1 = self.encoder1(x)
        enc2 = self.encoder2(self.pool1(enc1))
        bottleneck = self.bottleneck(self.pool2(enc2))
        dec2 = self.upconv2(bottleneck)
        dec2 = torch.cat((dec2, enc2), dim=1)
        dec2 = self.decoder2(dec2)
        dec1 = self.upconv1(dec2)
        dec1 = torch.cat((dec1, enc1), dim=1)
        dec1 = self.decoder1(dec1)
        coonv1_1 = self.conv(dec1)

        #block2
        enc1_2 = self.encoder1(coonv1_1)
        enc2_2 = self.encoder2(self.pool1(enc1_2))
        bottleneck_2 = self.bottleneck(self.pool2(enc2_2))
        dec2_2 = self.upconv2(bottleneck_2)
        dec2_2 = torch.cat((dec2_2, enc2_2), dim=1)
        dec2_2 = self.decoder2(dec2_2)
        dec1_2 = self.upconv1(dec2_2)
        dec1_2 = torch.cat((dec1_2, enc1_2), dim=1)
        dec1_2 = self.decoder1(dec1_2)
        coonv1_2 = self.conv(dec1_2)

        #concatenation of different UNet feature maps
        concat = torch.cat((coonv1_1, coonv1_2), dim=1)

        #pyramid convolution
        conv_pyramid_3 = self.pyramid_3(concat)
        conv_pyramid_5 = self.pyramid_5(concat)
        conv_pyramid_7 = self.pyramid_7(concat)
        concat_py = torch.cat((conv_pyramid_3, conv_pyramid_5, conv_pyramid_7), dim=1)

        return torch.sigmoid(self.conv_1(concat_py))

    @staticmethod
    def _block(in_channels, features, name):
        return nn.Sequential(
            OrderedDict(
                [
                    (name + "conv1", nn.Conv2d(in_channels=in_channels, out_channels=features, kernel_size=3, padding=1, bias=False)),
                    (name + "norm1", nn.BatchNorm2d(num_features=features)),
                    (name + "relu1", nn.ReLU(inplace=True)),
                    (name + "conv2", nn.Conv2d(in_channels=features, out_channels=features, kernel_size=3, padding=1, bias=False)),
                    (name + "norm2", nn.BatchNorm2d(num_features=features)),
                    (name + "relu2", nn.ReLU(inplace=True)),
                ]
            )
        )
# %%
# Defining our Discriminator
class Discriminator(nn.Module):
    def __init__(self, in_channels, use_sigmoid=True, use_spectral_norm=True):
        super().__init__()
        self.use_sigmoid = use_sigmoid

        self.conv1 = self.features = nn.Sequential(
            spectral_norm(nn.Conv2d(in_channels=in_channels, out_channels=8, kernel_size=4, stride=2, padding=1, bias=not use_spectral_norm), use_spectral_norm),
            nn.LeakyReLU(0.2, inplace=True),
        )
        self.conv2 = nn.Sequential(
            spectral_norm(nn.Conv2d(in_channels=8, out_channels=16, kernel_size=4, stride=2, padding=1, bias=not use_spectral_norm), use_spectral_norm),
            nn.LeakyReLU(0.2, inplace=True),
        )
        self.conv3 = nn.Sequential(
            spectral_norm(nn.Conv2d(in_channels=16, out_channels=32, kernel_size=4, stride=2, padding=1, bias=not use_spectral_norm), use_spectral_norm),
            nn.LeakyReLU(0.2, inplace=True),
        )
        self.conv4 = nn.Sequential(
            spectral_norm(nn.Conv2d(in_channels=32, out_channels=64, kernel_size=4, stride=1, padding=1, bias=not use_spectral_norm), use_spectral_norm),
            nn.LeakyReLU(0.2, inplace=True),
        )
        self.conv5 = nn.Sequential(
            spectral_norm(nn.Conv2d(in_channels=64, out_channels=1, kernel_size=4, stride=1, padding=1, bias=not use_spectral_norm), use_spectral_norm),
        )

    def forward(self, x):
        conv1 = self.conv1(x)
        conv2 = self.conv2(conv1)
        conv3 = self.conv3(conv2)
        conv4 = self.conv4(conv3)
        conv5 = self.conv5(conv4)

        outputs = conv5
        if self.use_sigmoid:
            outputs = torch.sigmoid(conv5)

        return outputs, [conv1, conv2, conv3, conv4, conv5]

def spectral_norm(module, mode=True):
    if mode:
        return nn.utils.spectral_norm(module)

    return module
# %%
# Defining our loss functions (the VGG19 content loss of the original is left out: no pretrained weights here)
class AdversarialLoss(nn.Module):
    def __init__(self, type='hinge', target_real_label=1.0, target_fake_label=0.0):
        super().__init__()
        self.type = type
        self.register_buffer('real_label', torch.tensor(target_real_label))
        self.register_buffer('fake_label', torch.tensor(target_fake_label))
        if type == 'nsgan':
            self.criterion = nn.BCELoss()
        elif type == 'lsgan':
            self.criterion = nn.MSELoss()
        elif type == 'hinge':
            self.criterion = nn.ReLU()

    def __call__(self, outputs, is_real, is_disc=None):
        if self.type == 'hinge':
            if is_real:
                return -torch.log(outputs).mean()
            else:
                return -torch.log(1 - outputs).mean()
        else:
            labels = (self.real_label if is_real else self.fake_label).expand_as(outputs)
            return self.criterion(outputs, labels)

def gaussian(window_size, sigma):
    gauss = torch.Tensor([exp(-(x - window_size // 2) ** 2 / float(2 * sigma ** 2)) for x in range(window_size)])
    return gauss / gauss.sum()

def create_window(window_size, channel):
    _1D_window = gaussian(window_size, 1.5).unsqueeze(1)
    _2D_window = _1D_window.mm(_1D_window.t()).float().unsqueeze(0).unsqueeze(0)
    return _2D_window.expand(channel, 1, window_size, window_size).contiguous()

def _ssim(img1, img2, window, window_size, channel, size_average=True):
    mu1 = F3.conv2d(img1, window, padding=window_size // 2, groups=channel)
    mu2 = F3.conv2d(img2, window, padding=window_size // 2, groups=channel)
    mu1_sq = mu1.pow(2)
    mu2_sq = mu2.pow(2)
    mu1_mu2 = mu1 * mu2
    sigma1_sq = F3.conv2d(img1 * img1, window, padding=window_size // 2, groups=channel) - mu1_sq
    sigma2_sq = F3.conv2d(img2 * img2, window, padding=window_size // 2, groups=channel) - mu2_sq
    sigma12 = F3.conv2d(img1 * img2, window, padding=window_size // 2, groups=channel) - mu1_mu2
    C1 = 0.01 ** 2
    C2 = 0.03 ** 2
    ssim_map = ((2 * mu1_mu2 + C1) * (2 * sigma12 + C2)) / ((mu1_sq + mu2_sq + C1) * (sigma1_sq + sigma2_sq + C2))
    return ssim_map.mean()

class SSIM(torch.nn.Module):
    def __init__(self, window_size=11, size_average=True):
        super(SSIM, self).__init__()
        self.window_size = window_size
        self.size_average = size_average
        self.channel = 1
        self.window = create_window(window_size, self.channel)

    def forward(self, img1, img2):
        (_, channel, _, _) = img1.size()
        if channel == self.channel and self.window.data.type() == img1.data.type():
            window = self.window
        else:
            window = create_window(self.window_size, channel).type_as(img1)
            self.window = window
            self.channel = channel
        return _ssim(img1, img2, window, self.window_size, channel, self.size_average)
# %%
# Defining our model i.e. DU_Net
class DU_Net(nn.Module):

    def __init__(self, unet_input, unet_output, discriminator_input):
        super().__init__()

        unet = UNet(in_channels=unet_input, out_channels=unet_output)
        discriminator = Discriminator(in_channels=discriminator_input, use_sigmoid=True)

        criterion = nn.MSELoss()
        adversarial_loss = AdversarialLoss(type='hinge')
        ssim = SSIM(window_size=11)

        self.add_module('unet', unet)
        self.add_module('discriminator', discriminator)
        self.add_module('criterion', criterion)
        self.add_module('adversarial_loss', adversarial_loss)
        self.add_module('ssim_loss', ssim)

        self.unet_optimizer = optim.Adam(unet.parameters(), lr=float(0.00001), betas=(0.9, 0.999))
        self.dis_optimizer = optim.Adam(params=discriminator.parameters(), lr=float(0.00001), betas=(0.9, 0.999))

    def process(self, haze_images, dehaze_images):

        # zero optimizers
        self.unet_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()

        # find output and initialize loss to zero
        unet_loss = 0
        dis_loss = 0

        outputs = self.unet(haze_images)

        # discriminator loss
        dis_real, dis_real_feat = self.discriminator(dehaze_images)
        dis_fake, dis_fake_feat = self.discriminator(outputs.detach())
        dis_real_loss = self.adversarial_loss(dis_real, True, True)
        dis_fake_loss = self.adversarial_loss(dis_fake, False, True)
        dis_loss += (dis_real_loss + dis_fake_loss) / 2

        # unet loss
        unet_fake, unet_fake_feat = self.discriminator(outputs)
        unet_gan_loss = self.adversarial_loss(unet_fake, True, False) * 0.7
        unet_loss += unet_gan_loss

        unet_criterion = self.criterion(outputs, dehaze_images)
        unet_loss += unet_criterion

        ssim_loss = self.ssim_loss(outputs, dehaze_images)
        ssim_loss = (1 - ssim_loss) * 2
        unet_loss += ssim_loss

        return unet_loss, dis_loss, unet_criterion, 1 - ssim_loss / 2

    def backward(self, unet_loss, dis_loss):
        dis_loss.backward(retain_graph=True)
        self.dis_optimizer.step()

        unet_loss.backward()
        self.unet_optimizer.step()

    def predict(self, haze_images):
        predict_mask = self.unet(haze_images)
        return predict_mask
# %%
# Defining the data (random hazy / clear pairs instead of the O-HAZE crops)
train_loader = [(torch.rand(2, 3, 32, 32), torch.rand(2, 3, 32, 32)) for _ in range(2)]
# %%
# Creating the model
graph_gloss = []
input_unet_channel = 3
output_unet_channel = 3
input_dis_channel = 3
DUNet = DU_Net(input_unet_channel, output_unet_channel, input_dis_channel)
# %%
# Training function
def train(max_epochs):
    for epoch in range(max_epochs):
        i = 1
        mse_epoch = 0.0
        ssim_epoch = 0.0
        unet_epoch = 0.0
        for haze_images, dehaze_images, in train_loader:
            unet_loss, dis_loss, mse, ssim = DUNet.process(haze_images, dehaze_images)
            DUNet.backward(unet_loss, dis_loss)
            print('Epoch: ' + str(epoch + 1) + ' || Batch: ' + str(i) + " || unet loss: " + str(unet_loss.item()) + " || dis loss: " + str(dis_loss.item()) + " || mse: " + str(mse.item()) + " | ssim:" + str(ssim.item()))
            mse_epoch = mse_epoch + mse.item()
            ssim_epoch = ssim_epoch + ssim.item()
            unet_epoch = unet_epoch + unet_loss.item()
            i = i + 1
        mse_epoch = mse_epoch / i
        ssim_epoch = ssim_epoch / i
        unet_epoch = unet_epoch / i
        graph_gloss.append(ssim_epoch)
        print("mse: + " + str(mse_epoch) + " | ssim: " + str(ssim_epoch) + " | unet:" + str(unet_epoch))
# %%
# Calling training function
epochs = 1
train(epochs)
