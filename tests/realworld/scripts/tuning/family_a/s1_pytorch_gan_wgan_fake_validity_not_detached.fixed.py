# source: https://github.com/eriklindernoren/PyTorch-GAN/issues/6
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


class Opt:
    latent_dim, img_size, channels, n_critic, clip_value, lr, n_epochs = 8, 4, 1, 1, 0.01, 5e-5, 2


opt = Opt()
img_shape = (opt.channels, opt.img_size, opt.img_size)


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.model = nn.Sequential(nn.Linear(opt.latent_dim, 32), nn.LeakyReLU(0.2, inplace=True),
                                   nn.Linear(32, int(np.prod(img_shape))), nn.Tanh())

    def forward(self, z):
        return self.model(z).view(z.shape[0], *img_shape)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.model = nn.Sequential(nn.Linear(int(np.prod(img_shape)), 32), nn.LeakyReLU(0.2, inplace=True), nn.Linear(32, 1))

    def forward(self, img):
        return self.model(img.view(img.shape[0], -1))


generator, discriminator = Generator(), Discriminator()
optimizer_G = torch.optim.RMSprop(generator.parameters(), lr=opt.lr)
optimizer_D = torch.optim.RMSprop(discriminator.parameters(), lr=opt.lr)
Tensor = torch.FloatTensor
dataloader = [(torch.randn(4, *img_shape), None) for _ in range(3)]

for epoch in range(opt.n_epochs):
    for i, (imgs, _) in enumerate(dataloader):
        valid = Tensor(imgs.shape[0], 1).fill_(1.0)
        fake = Tensor(imgs.shape[0], 1).fill_(-1.0)
        real_imgs = imgs.type(Tensor)

        # Train Discriminator
        optimizer_D.zero_grad()
        z = Tensor(np.random.normal(0, 1, (imgs.shape[0], opt.latent_dim)))
        gen_imgs = generator(z)
        real_validity = discriminator(real_imgs)
        real_validity.backward(valid)
        fake_validity = discriminator(gen_imgs.detach())
        fake_validity.backward(fake)
        optimizer_D.step()
        for p in discriminator.parameters():
            p.data.clamp_(-opt.clip_value, opt.clip_value)

        # Train Generator every n_critic iterations
        if i % opt.n_critic == 0:
            optimizer_G.zero_grad()
            gen_validity = discriminator(gen_imgs)
            gen_validity.backward(valid)
            optimizer_G.step()
    print(epoch, real_validity.mean().item(), gen_validity.mean().item())
