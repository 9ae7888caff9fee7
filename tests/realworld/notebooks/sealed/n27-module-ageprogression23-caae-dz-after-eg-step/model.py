# model.py of mattans/AgeProgression (the CAAE of "Age Progression/Regression by Conditional
# Adversarial Autoencoder"), cut down: 32x32 images, fewer/smaller layers, plain ConvTranspose2d
# instead of DeConv2dLikeTF, and Net.teach without the image saving, logging and validation.
import consts
import torch
import torch.nn as nn
from collections import OrderedDict, defaultdict
from torch.nn.functional import l1_loss
from torch.nn.functional import binary_cross_entropy_with_logits as bce_with_logits_loss
from torch.utils.data import DataLoader
from torch.optim import Adam


def two_sided(x):
    return 2 * (x - 0.5)


class Encoder(nn.Module):
    def __init__(self):
        super(Encoder, self).__init__()
        self.conv_layers = nn.ModuleList()

        def add_conv(module_list, name, in_ch, out_ch, kernel, stride, padding, act_fn):
            return module_list.add_module(
                name,
                nn.Sequential(
                    nn.Conv2d(in_channels=in_ch, out_channels=out_ch, kernel_size=kernel, stride=stride, padding=padding),
                    act_fn
                )
            )

        add_conv(self.conv_layers, 'e_conv_1', in_ch=3, out_ch=16, kernel=5, stride=2, padding=2, act_fn=nn.ReLU())
        add_conv(self.conv_layers, 'e_conv_2', in_ch=16, out_ch=32, kernel=5, stride=2, padding=2, act_fn=nn.ReLU())
        add_conv(self.conv_layers, 'e_conv_3', in_ch=32, out_ch=64, kernel=5, stride=2, padding=2, act_fn=nn.ReLU())

        self.fc_layer = nn.Sequential(
            OrderedDict(
                [
                    ('e_fc_1', nn.Linear(in_features=64 * 4 * 4, out_features=consts.NUM_Z_CHANNELS)),
                    ('tanh_1', nn.Tanh())  # normalize to [-1, 1] range
                ]
            )
        )

    def _compress(self, x):
        return x.view(x.size(0), -1)

    def forward(self, face):
        out = face
        for conv_layer in self.conv_layers:
            out = conv_layer(out)
        out = self._compress(out)
        out = self.fc_layer(out)
        return out


class DiscriminatorZ(nn.Module):
    def __init__(self):
        super(DiscriminatorZ, self).__init__()
        dims = (consts.NUM_Z_CHANNELS, consts.NUM_ENCODER_CHANNELS, consts.NUM_ENCODER_CHANNELS // 2,
                consts.NUM_ENCODER_CHANNELS // 4)
        self.layers = nn.ModuleList()
        for i, (in_dim, out_dim) in enumerate(zip(dims[:-1], dims[1:]), 1):
            self.layers.add_module(
                'dz_fc_%d' % i,
                nn.Sequential(
                    nn.Linear(in_dim, out_dim),
                    nn.BatchNorm1d(out_dim),
                    nn.ReLU()
                )
            )

        self.layers.add_module(
            'dz_fc_%d' % (i + 1),
            nn.Sequential(
                nn.Linear(out_dim, 1),
                # nn.Sigmoid()  # commented out because logits are needed
            )
        )

    def forward(self, z):
        out = z
        for layer in self.layers:
            out = layer(out)
        return out


class DiscriminatorImg(nn.Module):
    def __init__(self):
        super(DiscriminatorImg, self).__init__()
        in_dims = (3, 16 + consts.LABEL_LEN_EXPANDED, 32)
        out_dims = (16, 32, 64)
        self.conv_layers = nn.ModuleList()
        self.fc_layers = nn.ModuleList()
        for i, (in_dim, out_dim) in enumerate(zip(in_dims, out_dims), 1):
            self.conv_layers.add_module(
                'dimg_conv_%d' % i,
                nn.Sequential(
                    nn.Conv2d(in_dim, out_dim, kernel_size=2, stride=2),
                    nn.BatchNorm2d(out_dim),
                    nn.ReLU()
                )
            )

        self.fc_layers.add_module(
            'dimg_fc_1',
            nn.Sequential(
                nn.Linear(64 * 4 * 4, 128),
                nn.LeakyReLU()
            )
        )

        self.fc_layers.add_module(
            'dimg_fc_2',
            nn.Sequential(
                nn.Linear(128, 1),
                # nn.Sigmoid()  # commented out because logits are needed
            )
        )

    def forward(self, imgs, labels, device):
        out = imgs

        # run convs
        for i, conv_layer in enumerate(self.conv_layers, 1):
            out = conv_layer(out)
            if i == 1:
                # concat labels after first conv
                labels_tensor = torch.zeros(torch.Size((out.size(0), labels.size(1), out.size(2), out.size(3))), device=device)
                for img_idx in range(out.size(0)):
                    for label in range(labels.size(1)):
                        labels_tensor[img_idx, label, :, :] = labels[img_idx, label]  # fill a square
                out = torch.cat((out, labels_tensor), 1)

        # run fcs
        out = out.flatten(1, -1)
        for fc_layer in self.fc_layers:
            out = fc_layer(out)

        return out


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        mini_size = 4
        self.fc = nn.Sequential(
            nn.Linear(
                consts.NUM_Z_CHANNELS + consts.LABEL_LEN_EXPANDED,
                consts.NUM_GEN_CHANNELS * mini_size ** 2
            ),
            nn.ReLU()
        )
        # need to reshape now to ?,64,4,4

        self.deconv_layers = nn.ModuleList()

        def add_deconv(module_list, name, in_ch, out_ch, actf):
            return module_list.add_module(
                name,
                nn.Sequential(
                    nn.ConvTranspose2d(in_ch, out_ch, kernel_size=4, stride=2, padding=1),
                    actf
                )
            )

        add_deconv(self.deconv_layers, 'g_deconv_1', 64, 32, actf=nn.ReLU())
        add_deconv(self.deconv_layers, 'g_deconv_2', 32, 16, actf=nn.ReLU())
        add_deconv(self.deconv_layers, 'g_deconv_3', 16, 3, actf=nn.Tanh())

    def _decompress(self, x):
        return x.view(x.size(0), consts.NUM_GEN_CHANNELS, 4, 4)

    def forward(self, z):
        out = self.fc(z)
        out = self._decompress(out)
        for i, deconv_layer in enumerate(self.deconv_layers, 1):
            out = deconv_layer(out)
        return out


class Net(object):
    def __init__(self):
        self.E = Encoder()
        self.Dz = DiscriminatorZ()
        self.Dimg = DiscriminatorImg()
        self.G = Generator()

        self.eg_optimizer = Adam(list(self.E.parameters()) + list(self.G.parameters()))
        self.dz_optimizer = Adam(self.Dz.parameters())
        self.di_optimizer = Adam(self.Dimg.parameters())

        self.device = torch.device('cpu')

    def train(self):
        for m in (self.E, self.Dz, self.Dimg, self.G):
            m.train()

    def teach(self, dataset, batch_size=64, epochs=1, weight_decay=1e-5, lr=2e-4, betas=(0.9, 0.999)):
        train_loader = DataLoader(dataset=dataset, batch_size=batch_size, shuffle=False)
        input_output_loss = l1_loss

        for optimizer in (self.eg_optimizer, self.dz_optimizer, self.di_optimizer):
            for param in ('weight_decay', 'betas', 'lr'):
                val = locals()[param]
                if val is not None:
                    optimizer.param_groups[0][param] = val

        for epoch in range(1, epochs + 1):
            losses = defaultdict(lambda: [])
            self.train()  # move to train mode
            for i, (images, labels) in enumerate(train_loader, 1):

                images = images.to(device=self.device)
                labels = labels.to(device=self.device)
                z = self.E(images)

                # Input\Output Loss
                z_l = torch.cat((z, labels), 1)
                generated = self.G(z_l)
                eg_loss = input_output_loss(generated, images)
                losses['eg'].append(eg_loss.item())

                # Total Variance Regularization Loss
                reg = l1_loss(generated[:, :, :, :-1], generated[:, :, :, 1:]) + l1_loss(generated[:, :, :-1, :], generated[:, :, 1:, :])
                reg_loss = 0 * reg
                losses['reg'].append(reg_loss.item())

                # DiscriminatorZ Loss
                z_prior = two_sided(torch.rand_like(z, device=self.device))  # [-1 : 1]
                d_z_prior = self.Dz(z_prior)
                d_z = self.Dz(z)
                dz_loss_prior = bce_with_logits_loss(d_z_prior, torch.ones_like(d_z_prior))
                dz_loss = bce_with_logits_loss(d_z, torch.zeros_like(d_z))
                dz_loss_tot = (dz_loss + dz_loss_prior)
                losses['dz'].append(dz_loss_tot.item())

                # Encoder\DiscriminatorZ Loss
                ez_loss = 0 * bce_with_logits_loss(d_z, torch.ones_like(d_z))
                losses['ez'].append(ez_loss.item())

                # DiscriminatorImg Loss
                d_i_input = self.Dimg(images, labels, self.device)
                d_i_output = self.Dimg(generated, labels, self.device)

                di_input_loss = bce_with_logits_loss(d_i_input, torch.ones_like(d_i_input))
                di_output_loss = bce_with_logits_loss(d_i_output, torch.zeros_like(d_i_output))
                di_loss_tot = (di_input_loss + di_output_loss)
                losses['di'].append(di_loss_tot.item())

                # Generator\DiscriminatorImg Loss
                dg_loss = 0.0001 * bce_with_logits_loss(d_i_output, torch.ones_like(d_i_output))
                losses['dg'].append(dg_loss.item())

                # Start back propagation

                # Back prop on Encoder\Generator
                self.eg_optimizer.zero_grad()
                loss = eg_loss + reg_loss + ez_loss + dg_loss
                loss.backward(retain_graph=True)
                self.eg_optimizer.step()

                # Back prop on DiscriminatorZ
                self.dz_optimizer.zero_grad()
                dz_loss_tot.backward(retain_graph=True)
                self.dz_optimizer.step()

                # Back prop on DiscriminatorImg
                self.di_optimizer.zero_grad()
                di_loss_tot.backward()
                self.di_optimizer.step()

            print(f"[Epoch {epoch:d}] Loss: {loss.item():f}")
        return losses
