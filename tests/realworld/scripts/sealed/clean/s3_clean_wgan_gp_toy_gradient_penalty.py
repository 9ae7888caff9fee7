# source: https://github.com/caogang/wgan-gp/blob/master/gan_toy.py
# style: gan
# expert: correct WGAN-GP: the gradient penalty uses autograd.grad(create_graph=True, retain_graph=True) legitimately, the generator sample is produced under no grad for the critic updates, and D/G are updated with separate optimizers
import numpy as np
import torch
import torch.autograd as autograd
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(1)
np.random.seed(1)
DIM, LAMBDA, CRITIC_ITERS, BATCH_SIZE, ITERS = 32, .1, 3, 16, 6


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.main = nn.Sequential(nn.Linear(2, DIM), nn.ReLU(True), nn.Linear(DIM, DIM), nn.ReLU(True), nn.Linear(DIM, 2))

    def forward(self, noise, real_data):
        return self.main(noise)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(nn.Linear(2, DIM), nn.ReLU(True), nn.Linear(DIM, DIM), nn.ReLU(True), nn.Linear(DIM, 1))

    def forward(self, inputs):
        return self.main(inputs).view(-1)


def inf_train_gen():
    while True:
        yield (np.random.randn(BATCH_SIZE, 2) * 0.2 + np.array([1.0, -1.0])).astype('float32')


def calc_gradient_penalty(netD, real_data, fake_data):
    alpha = torch.rand(BATCH_SIZE, 1)
    alpha = alpha.expand(real_data.size())
    interpolates = alpha * real_data + ((1 - alpha) * fake_data)
    interpolates = autograd.Variable(interpolates, requires_grad=True)
    disc_interpolates = netD(interpolates)
    gradients = autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                              grad_outputs=torch.ones(disc_interpolates.size()),
                              create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * LAMBDA


netG, netD = Generator(), Discriminator()
optimizerD = optim.Adam(netD.parameters(), lr=1e-4, betas=(0.5, 0.9))
optimizerG = optim.Adam(netG.parameters(), lr=1e-4, betas=(0.5, 0.9))
one = torch.tensor(1, dtype=torch.float)
mone = one * -1
data = inf_train_gen()

for iteration in range(ITERS):
    for p in netD.parameters():
        p.requires_grad = True
    for iter_d in range(CRITIC_ITERS):
        _data = next(data)
        real_data_v = torch.from_numpy(_data)
        netD.zero_grad()
        D_real = netD(real_data_v).mean()
        D_real.backward(mone)
        noise = torch.randn(BATCH_SIZE, 2)
        with torch.no_grad():
            fake = netG(noise, real_data_v)
        D_fake = netD(fake).mean()
        D_fake.backward(one)
        gradient_penalty = calc_gradient_penalty(netD, real_data_v.data, fake.data)
        gradient_penalty.backward()
        D_cost = D_fake - D_real + gradient_penalty
        Wasserstein_D = D_real - D_fake
        optimizerD.step()
    for p in netD.parameters():
        p.requires_grad = False
    netG.zero_grad()
    noise = torch.randn(BATCH_SIZE, 2)
    fake = netG(noise, real_data_v)
    G = netD(fake).mean()
    G.backward(mone)
    G_cost = -G
    optimizerG.step()
    print(iteration, 'D_cost %.4f G_cost %.4f W %.4f' % (D_cost.item(), G_cost.item(), Wasserstein_D.item()))
