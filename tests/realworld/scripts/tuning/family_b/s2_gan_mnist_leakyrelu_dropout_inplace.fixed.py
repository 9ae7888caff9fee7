# source: https://github.com/dreamgonfly/GAN-tutorial/issues/1
# style: gan
# cause: inplace_modified_saved_tensor
# line: 35
# expert: remove inplace=True from the LeakyReLU and Dropout layers of the Generator and Discriminator (the in-place Dropout overwrites the LeakyReLU output that its backward needs)
import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.main = nn.Sequential(
            nn.Linear(in_features=100, out_features=32),
            nn.LeakyReLU(0.2),
            nn.Linear(in_features=32, out_features=64),
            nn.LeakyReLU(0.2),
            nn.Linear(in_features=64, out_features=28 * 28),
            nn.Tanh())

    def forward(self, inputs):
        return self.main(inputs).view(-1, 1, 28, 28)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(
            nn.Linear(in_features=28 * 28, out_features=64),
            nn.LeakyReLU(0.2),
            nn.Dropout(),
            nn.Linear(in_features=64, out_features=32),
            nn.LeakyReLU(0.2),
            nn.Dropout(),
            nn.Linear(in_features=32, out_features=1),
            nn.Sigmoid())

    def forward(self, inputs):
        inputs = inputs.view(-1, 28 * 28)
        return self.main(inputs)


generator = Generator()
discriminator = Discriminator()
criterion = nn.BCELoss()
generator_optimizer = torch.optim.Adam(generator.parameters(), lr=0.0002, betas=(0.5, 0.999))
discriminator_optimizer = torch.optim.Adam(discriminator.parameters(), lr=0.0002, betas=(0.5, 0.999))

dataloader = [(torch.rand(8, 1, 28, 28) * 2 - 1, torch.zeros(8)) for _ in range(3)]

for epoch in range(2):
    for real_data, _ in dataloader:
        batch_size = real_data.size(0)
        real_data = Variable(real_data)
        target_real = Variable(torch.ones(batch_size, 1))
        target_fake = Variable(torch.zeros(batch_size, 1))

        D_result_from_real = discriminator(real_data)
        D_loss_real = criterion(D_result_from_real, target_real)

        z = Variable(torch.randn((batch_size, 100)))
        fake_data = generator(z)
        D_result_from_fake = discriminator(fake_data)
        D_loss_fake = criterion(D_result_from_fake, target_fake)

        D_loss = D_loss_real + D_loss_fake
        discriminator.zero_grad()
        D_loss.backward()
        discriminator_optimizer.step()

        z = Variable(torch.randn((batch_size, 100)))
        fake_data = generator(z)
        D_result_from_fake = discriminator(fake_data)
        G_loss = criterion(D_result_from_fake, target_real)
        generator.zero_grad()
        G_loss.backward()
        generator_optimizer.step()
    print(epoch, D_loss.item(), G_loss.item())
