# source: variant of https://github.com/caogang/wgan-gp/issues/36
# style: gan
# cause: shared_subgraph_multiple_backward
# line: 59
# expert: D_fake.backward(one) already freed the generator part of the graph; feed netD(fake.detach()) in the critic loop and, for the generator step, sample new noise and run netG again
import torch
import torch.autograd as autograd
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(1)
DIM, BATCH_SIZE, CRITIC_ITERS, LAMBDA = 32, 32, 3, .1


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(2, DIM), nn.ReLU(True), nn.Linear(DIM, DIM), nn.ReLU(True), nn.Linear(DIM, 2))

    def forward(self, noise, real_data):
        return self.main(noise)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(2, DIM), nn.ReLU(True), nn.Linear(DIM, DIM), nn.ReLU(True), nn.Linear(DIM, 1))

    def forward(self, inputs):
        return self.main(inputs).view(-1)


def calc_gradient_penalty(netD, real_data, fake_data):
    alpha = torch.rand(BATCH_SIZE, 1).expand(real_data.size())
    interpolates = (alpha * real_data + ((1 - alpha) * fake_data)).requires_grad_(True)
    disc_interpolates = netD(interpolates)
    gradients = autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                              grad_outputs=torch.ones(disc_interpolates.size()),
                              create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * LAMBDA


netG, netD = Generator(), Discriminator()
optimizerD = optim.Adam(netD.parameters(), lr=1e-4, betas=(0.5, 0.9))
optimizerG = optim.Adam(netG.parameters(), lr=1e-4, betas=(0.5, 0.9))
one = torch.tensor(1.)
mone = one * -1

for iteration in range(3):
    for p in netD.parameters():
        p.requires_grad = True
    for iter_d in range(CRITIC_ITERS):
        real_data_v = torch.randn(BATCH_SIZE, 2) * 0.3 + 1.0
        netD.zero_grad()
        D_real = netD(real_data_v).mean()
        D_real.backward(mone)
        noisev = torch.randn(BATCH_SIZE, 2)
        fake = netG(noisev, real_data_v)
        D_fake = netD(fake.detach()).mean()
        D_fake.backward(one)
        gradient_penalty = calc_gradient_penalty(netD, real_data_v.data, fake.data)
        gradient_penalty.backward()
        D_cost = D_fake - D_real + gradient_penalty
        optimizerD.step()

    for p in netD.parameters():
        p.requires_grad = False
    netG.zero_grad()
    noisev = torch.randn(BATCH_SIZE, 2)
    fake = netG(noisev, real_data_v)
    G = netD(fake).mean()
    G.backward(mone)
    G_cost = -G
    optimizerG.step()
    print(iteration, D_cost.item(), G_cost.item())
