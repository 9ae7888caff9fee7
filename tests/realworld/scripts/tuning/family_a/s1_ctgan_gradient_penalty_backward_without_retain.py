# source: variant of https://github.com/sdv-dev/CTGAN/issues/37
# style: gan
# cause: shared_subgraph_multiple_backward
# line: 93
# expert: pen and loss_d both reach the generator output fake_cat (not detached), so the first backward frees the shared part; as the maintainer explains, pen.backward(retain_graph=True) is required before loss_d.backward() (equivalently backprop pen + loss_d once)
import numpy as np
import torch
from torch import nn, optim

torch.manual_seed(0)
np.random.seed(0)


class Discriminator(nn.Module):
    def __init__(self, input_dim, discriminator_dim=(16, 16), pac=2):
        super().__init__()
        dim = input_dim * pac
        self.pac = pac
        self.pacdim = dim
        seq = []
        for item in list(discriminator_dim):
            seq += [nn.Linear(dim, item), nn.LeakyReLU(0.2), nn.Dropout(0.0)]
            dim = item
        seq += [nn.Linear(dim, 1)]
        self.seq = nn.Sequential(*seq)

    def calc_gradient_penalty(self, real_data, fake_data, device='cpu', pac=2, lambda_=10):
        alpha = torch.rand(real_data.size(0) // pac, 1, 1, device=device)
        alpha = alpha.repeat(1, pac, real_data.size(1))
        alpha = alpha.view(-1, real_data.size(1))
        interpolates = alpha * real_data + ((1 - alpha) * fake_data)
        disc_interpolates = self(interpolates)
        gradients = torch.autograd.grad(
            outputs=disc_interpolates, inputs=interpolates,
            grad_outputs=torch.ones(disc_interpolates.size(), device=device),
            create_graph=True, retain_graph=True, only_inputs=True)[0]
        gradients_view = gradients.view(-1, pac * real_data.size(1)).norm(2, dim=1) - 1
        gradient_penalty = ((gradients_view) ** 2).mean() * lambda_
        return gradient_penalty

    def forward(self, input_):
        assert input_.size()[0] % self.pac == 0
        return self.seq(input_.view(-1, self.pacdim))


class Generator(nn.Module):
    def __init__(self, embedding_dim, data_dim):
        super().__init__()
        self.seq = nn.Sequential(nn.Linear(embedding_dim, 32), nn.ReLU(), nn.Linear(32, data_dim))

    def forward(self, input_):
        return self.seq(input_)


embedding_dim, data_dim, cond_dim, batch_size = 8, 6, 3, 10
train_data = np.random.randn(40, data_dim).astype('float32')
generator = Generator(embedding_dim + cond_dim, data_dim)
discriminator = Discriminator(data_dim + cond_dim, pac=2)
optimizerG = optim.Adam(generator.parameters(), lr=2e-4, betas=(0.5, 0.9))
optimizerD = optim.Adam(discriminator.parameters(), lr=2e-4, betas=(0.5, 0.9))
mean = torch.zeros(batch_size, embedding_dim)
std = mean + 1
discriminator_steps = 1


def _apply_activate(data):
    return torch.tanh(data)


for i in range(2):
    for id_ in range(len(train_data) // batch_size):
        for n in range(discriminator_steps):
            fakez = torch.normal(mean=mean, std=std)
            c1 = torch.eye(cond_dim)[torch.randint(0, cond_dim, (batch_size,))]
            fakez = torch.cat([fakez, c1], dim=1)
            idx = np.random.randint(0, len(train_data), batch_size)
            real = torch.from_numpy(train_data[idx])
            c2 = c1[torch.randperm(batch_size)]

            fake = generator(fakez)
            fakeact = _apply_activate(fake)

            fake_cat = torch.cat([fakeact, c1], dim=1)
            real_cat = torch.cat([real, c2], dim=1)

            y_fake = discriminator(fake_cat)
            y_real = discriminator(real_cat)

            pen = discriminator.calc_gradient_penalty(real_cat, fake_cat, 'cpu', 2)
            loss_d = -(torch.mean(y_real) - torch.mean(y_fake))

            optimizerD.zero_grad()
            pen.backward()
            loss_d.backward()
            optimizerD.step()

        fakez = torch.normal(mean=mean, std=std)
        c1 = torch.eye(cond_dim)[torch.randint(0, cond_dim, (batch_size,))]
        fakez = torch.cat([fakez, c1], dim=1)
        fake = generator(fakez)
        fakeact = _apply_activate(fake)
        y_fake = discriminator(torch.cat([fakeact, c1], dim=1))
        loss_g = -torch.mean(y_fake)
        optimizerG.zero_grad()
        loss_g.backward()
        optimizerG.step()
    print(i, loss_d.item(), loss_g.item())
