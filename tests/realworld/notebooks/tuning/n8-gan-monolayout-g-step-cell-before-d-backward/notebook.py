# source: variant of https://github.com/manila95/monolayout/pull/10
# scenario: gan_multiloss
# cause: inplace_modified_saved_tensor
# root: cell 4 line 3
# expert: loss_D is computed from fake_pred = discriminator(outputs["topview"]) without detach, so its graph runs back through the decoder and encoder; the 'Train generator' cell steps model_optimizer right after loss_G.backward(retain_graph=True), rewriting those weights before the 'Train discriminator' cell backpropagates loss_D through them; the PR moves model_optimizer.step() after loss_D.backward(), next to model_optimizer_D.step()
# %%
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from collections import OrderedDict
torch.manual_seed(0)


def upsample(x):
    return F.interpolate(x, scale_factor=2, mode="nearest")


class Encoder(nn.Module):
    """Stand-in for the ResNet-18 encoder: image -> 16 x (H/32) x (W/32) features."""
    def __init__(self):
        super(Encoder, self).__init__()
        layers, ch = [], 3
        for out in (8, 8, 16, 16, 16):
            layers += [nn.Conv2d(ch, out, 3, 2, 1), nn.BatchNorm2d(out), nn.ReLU(True)]
            ch = out
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


class Decoder(nn.Module):
    def __init__(self):
        super(Decoder, self).__init__()
        self.num_output_channels = 2
        self.num_ch_dec = np.array([4, 8, 8, 16, 16])
        self.convs = OrderedDict()
        for i in range(4, -1, -1):
            num_ch_in = 16 if i == 4 else self.num_ch_dec[i + 1]
            num_ch_out = self.num_ch_dec[i]
            self.convs[("upconv", i, 0)] = nn.Conv2d(num_ch_in, num_ch_out, 3, 1, 1)
            self.convs[("norm", i, 0)] = nn.BatchNorm2d(num_ch_out)
            self.convs[("relu", i, 0)] = nn.ReLU(True)
            self.convs[("upconv", i, 1)] = nn.Conv2d(num_ch_out, num_ch_out, 3, 1, 1)
            self.convs[("norm", i, 1)] = nn.BatchNorm2d(num_ch_out)
        self.convs["topview"] = nn.Conv2d(self.num_ch_dec[0], self.num_output_channels, 3, 1, 1)
        self.decoder = nn.ModuleList(list(self.convs.values()))

    def forward(self, x, is_training=True):
        for i in range(4, -1, -1):
            x = self.convs[("upconv", i, 0)](x)
            x = self.convs[("norm", i, 0)](x)
            x = self.convs[("relu", i, 0)](x)
            x = upsample(x)
            x = self.convs[("upconv", i, 1)](x)
            x = self.convs[("norm", i, 1)](x)
        return self.convs["topview"](x)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(
            nn.Conv2d(2, 8, 3, 2, 1, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(8, 16, 3, 2, 1, 1, bias=False),
            nn.BatchNorm2d(16),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(16, 32, 3, 2, 1, 1, bias=False),
            nn.BatchNorm2d(32),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(32, 8, 3, 2, 1, 1, bias=False),
            nn.BatchNorm2d(8),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(8, 1, 3, 1, 1, bias=False),
            nn.Sigmoid()
        )

    def forward(self, x):
        return self.main(x)
# %%
batch_size, occ_map_size, lr, lambda_D, static_weight = 2, 64, 1e-4, 0.01, 5.0
criterion_d = nn.BCEWithLogitsLoss()
models = {"encoder": Encoder(), "decoder": Decoder(), "discriminator": Discriminator()}
parameters_to_train, parameters_to_train_D = [], []
for key in models.keys():
    if "discr" in key:
        parameters_to_train_D += list(models[key].parameters())
    else:
        parameters_to_train += list(models[key].parameters())
model_optimizer = optim.Adam(parameters_to_train, lr)
model_optimizer_D = optim.Adam(parameters_to_train_D, lr)

patch = (1, occ_map_size // 2 ** 4, occ_map_size // 2 ** 4)
valid = torch.ones((batch_size, *patch))
fake = torch.zeros((batch_size, *patch))


def compute_topview_loss(outputs, true_top_view, weight):
    true_top_view = torch.squeeze(true_top_view.long())
    loss = nn.CrossEntropyLoss(weight=torch.Tensor([1., weight]))
    return loss(outputs, true_top_view).mean()


def process_batch(inputs):
    outputs = {}
    features = models["encoder"](inputs["color"])
    outputs["topview"] = models["decoder"](features)
    losses = {"loss": compute_topview_loss(outputs["topview"], inputs["static"], static_weight)}
    return outputs, losses
# %%
# one batch: image, static layout ground truth, and a layout sample for the discriminator
inputs = {"color": torch.rand(batch_size, 3, 64, 64),
          "static": torch.randint(0, 2, (batch_size, occ_map_size, occ_map_size)).float(),
          "discr": torch.rand(batch_size, 2, occ_map_size, occ_map_size)}
# %%
outputs, losses = process_batch(inputs)
model_optimizer.zero_grad()
fake_pred = models["discriminator"](outputs["topview"])
real_pred = models["discriminator"](inputs["discr"].float())
loss_GAN = criterion_d(fake_pred, valid)
loss_D = criterion_d(fake_pred, fake) + criterion_d(real_pred, valid)
loss_G = lambda_D * loss_GAN + losses["loss"]
# %%
# Train generator
loss_G.backward(retain_graph=True)
model_optimizer.step()
# %%
# Train discriminator
model_optimizer_D.zero_grad()
loss_D.backward()
model_optimizer_D.step()
print(loss_G.item(), loss_D.item())
