# source: variant of https://github.com/aelnouby/Text-to-Image-Synthesis/issues/5 (the issue proposes reusing the discriminator step's fake images for the generator step; trainer.py train_gan_cls)
# style: gan
# cause: shared_subgraph_multiple_backward
# line: 138
# expert: The fake_images generated for the discriminator step feed d_loss without detach, so d_loss.backward() frees the generator part of their graph; reusing the same fake_images for g_loss backpropagates through it a second time. The maintainer explains he generates the fakes twice "because there was a problem with gradients": regenerate noise and fake_images for the generator step (as trainer.py does).
import numpy as np
import torch
from torch import nn
from torch.autograd import Variable

torch.manual_seed(0)
np.random.seed(0)


class Utils(object):
    @staticmethod
    def smooth_label(tensor, offset):
        return tensor + offset


class generator(nn.Module):
    def __init__(self):
        super(generator, self).__init__()
        self.image_size = 16
        self.num_channels = 3
        self.noise_dim = 100
        self.embed_dim = 32
        self.projected_embed_dim = 16
        self.latent_dim = self.noise_dim + self.projected_embed_dim
        self.ngf = 8
        self.projection = nn.Sequential(
            nn.Linear(in_features=self.embed_dim, out_features=self.projected_embed_dim),
            nn.BatchNorm1d(num_features=self.projected_embed_dim),
            nn.LeakyReLU(negative_slope=0.2, inplace=True))
        self.netG = nn.Sequential(
            nn.ConvTranspose2d(self.latent_dim, self.ngf * 2, 4, 1, 0, bias=False),
            nn.BatchNorm2d(self.ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(self.ngf * 2, self.ngf, 4, 2, 1, bias=False),
            nn.BatchNorm2d(self.ngf),
            nn.ReLU(True),
            nn.ConvTranspose2d(self.ngf, self.num_channels, 4, 2, 1, bias=False),
            nn.Tanh())

    def forward(self, embed_vector, z):
        projected_embed = self.projection(embed_vector).unsqueeze(2).unsqueeze(3)
        latent_vector = torch.cat([projected_embed, z], 1)
        output = self.netG(latent_vector)
        return output


class discriminator(nn.Module):
    def __init__(self):
        super(discriminator, self).__init__()
        self.num_channels = 3
        self.embed_dim = 32
        self.projected_embed_dim = 16
        self.ndf = 8
        self.netD_1 = nn.Sequential(
            nn.Conv2d(self.num_channels, self.ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(self.ndf, self.ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(self.ndf * 2),
            nn.LeakyReLU(0.2, inplace=True))
        self.projection = nn.Sequential(
            nn.Linear(self.embed_dim, self.projected_embed_dim),
            nn.LeakyReLU(0.2))
        self.netD_2 = nn.Sequential(
            nn.Conv2d(self.ndf * 2 + self.projected_embed_dim, 1, 4, 1, 0, bias=False),
            nn.Sigmoid())

    def forward(self, inp, embed):
        x_intermediate = self.netD_1(inp)
        projected_embed = self.projection(embed).view(embed.size(0), -1, 1, 1).repeat(1, 1, 4, 4)
        x = torch.cat([x_intermediate, projected_embed], 1)
        x = self.netD_2(x)
        return x.view(-1, 1).squeeze(1)


class Trainer(object):
    def __init__(self):
        self.generator = generator()
        self.discriminator = discriminator()

        # stands in for CUBDataset + DataLoader: (image, matching text embedding, mismatching image)
        self.data_loader = [{'right_image': torch.randn(4, 3, 16, 16),
                             'right_emed': torch.randn(4, 32),
                             'wrong_image': torch.randn(4, 3, 16, 16)} for _ in range(3)]

        self.noise_dim = 100
        self.batch_size = 4
        self.lr = 0.0002
        self.beta1 = 0.5
        self.num_epochs = 1
        self.hist_D = []
        self.hist_G = []

    def train_gan_cls(self):
        criterion = nn.BCELoss()
        lr = 0.0002
        d_optimizer = torch.optim.Adam(self.discriminator.parameters(), lr=lr, betas=(self.beta1, 0.999))
        g_optimizer = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(self.beta1, 0.999))

        for epoch in range(self.num_epochs):
            print("Epoch %d started." % (epoch))

            for sample in self.data_loader:
                self.discriminator.zero_grad()
                right_image = sample['right_image']
                right_emed = sample['right_emed']
                wrong_image = sample['wrong_image']

                right_image = Variable(right_image.float())
                right_emed = Variable(right_emed.float())
                wrong_image = Variable(wrong_image.float())

                real_labels = torch.ones(right_image.size(0))
                fake_labels = torch.zeros(right_image.size(0))

                # One sided label smoothing
                real_labels = torch.FloatTensor(Utils.smooth_label(real_labels.numpy(), -0.3))

                real_labels = Variable(real_labels)
                fake_labels = Variable(fake_labels)

                # Train the discriminator
                self.discriminator.zero_grad()
                outputs = self.discriminator(right_image, right_emed)
                real_loss = criterion(outputs, real_labels)
                real_score = outputs

                outputs = self.discriminator(wrong_image, right_emed)
                wrong_loss = criterion(outputs, fake_labels)
                wrong_score = outputs

                noise = Variable(torch.randn(right_image.size(0), 100))
                noise = noise.view(noise.size(0), 100, 1, 1)
                fake_images = self.generator(right_emed, noise)
                outputs = self.discriminator(fake_images, right_emed)
                fake_loss = criterion(outputs, fake_labels)
                fake_score = outputs

                d_loss = real_loss + 0.5 * (fake_loss + wrong_loss)
                d_loss.backward()
                d_optimizer.step()

                # Train the generator (same fake images as the discriminator saw)
                self.generator.zero_grad()
                outputs = self.discriminator(fake_images, right_emed)
                g_loss = criterion(outputs, real_labels)
                g_loss.backward()
                g_optimizer.step()

                print("Epoch: %d, d_loss= %f, g_loss= %f, D(X)= %f, D(G(X))= %f" % (
                    epoch, d_loss.data.mean(), g_loss.data.mean(), real_score.data.mean(),
                    fake_score.data.mean()))
                self.hist_D.append(d_loss.data.mean())
                self.hist_G.append(g_loss.data.mean())


if __name__ == '__main__':
    trainer = Trainer()
    trainer.train_gan_cls()
