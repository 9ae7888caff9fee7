# source: https://github.com/caogang/wgan-gp/issues/59
# style: gan
# expert: correct: the critic calls backward three times (D_real, D_fake, gradient_penalty) but each term has its own graph — the fake batch comes from netG(noisev).data and the penalty builds its own interpolates — so the gradients simply accumulate before optimizerD.step()
import torch
import torch.autograd as autograd
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(1)
DIM, BATCH_SIZE, LAMBDA, CRITIC_ITERS, ITERS = 16, 8, 10, 3, 3


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.main = nn.Sequential(nn.Linear(2, DIM), nn.ReLU(True), nn.Linear(DIM, 2))

    def forward(self, noise):
        return self.main(noise)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(nn.Linear(2, DIM), nn.ReLU(True), nn.Linear(DIM, 1))

    def forward(self, inputs):
        return self.main(inputs).view(-1)


def calc_gradient_penalty(netD, real_data, fake_data):
    alpha = torch.rand(BATCH_SIZE, 1).expand(real_data.size())
    interpolates = alpha * real_data + ((1 - alpha) * fake_data)
    interpolates = interpolates.requires_grad_(True)
    disc_interpolates = netD(interpolates)
    gradients = autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                              grad_outputs=torch.ones(disc_interpolates.size()),
                              create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * LAMBDA


netG, netD = Generator(), Discriminator()
optimizerD = optim.Adam(netD.parameters(), lr=1e-4, betas=(0.5, 0.9))
optimizerG = optim.Adam(netG.parameters(), lr=1e-4, betas=(0.5, 0.9))
one = torch.tensor(1.0)
mone = one * -1

for iteration in range(ITERS):
    for p in netD.parameters():
        p.requires_grad = True
    for iter_d in range(CRITIC_ITERS):
        real_data_v = torch.randn(BATCH_SIZE, 2) + 2
        netD.zero_grad()
        D_real = netD(real_data_v).mean()
        D_real.backward(mone)
        noisev = torch.randn(BATCH_SIZE, 2)
        fake = netG(noisev).data
        D_fake = netD(fake).mean()
        D_fake.backward(one)
        gradient_penalty = calc_gradient_penalty(netD, real_data_v, fake)
        gradient_penalty.backward()
        D_cost = D_fake - D_real + gradient_penalty
        optimizerD.step()
    for p in netD.parameters():
        p.requires_grad = False
    netG.zero_grad()
    noisev = torch.randn(BATCH_SIZE, 2)
    fake = netG(noisev)
    G = netD(fake).mean()
    G.backward(mone)
    optimizerG.step()
    print(iteration, D_cost.item(), G.item())
