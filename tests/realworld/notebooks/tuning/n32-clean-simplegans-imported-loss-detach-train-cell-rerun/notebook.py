# source: https://github.com/ahj1592/Simple_GANs/blob/3de7a9ed26ad8fb9fb5c21cbbd5762f2f02ee289/main.py (a basic MNIST GAN after the deeplearning.ai GAN course: main.py imports get_disc_loss / get_gen_loss from utils/loss.py, where the discriminator loss scores gen(fake_noise).detach() and the generator loss draws fresh noise and runs its own forward pass; the training loop calls disc_loss.backward(retain_graph=True), disc_opt.step(), then gen_loss.backward(), gen_opt.step()). Generator.py, Discriminator.py and utils/noise.py are the repository's, kept next to the notebook; utils/loss.py likewise, its relative `from .noise import *` written `from noise import *`; main.py split into notebook cells without tqdm, torchvision or image saving; seeded random 28x28 images instead of MNIST (4 batches of 16), CPU, 1 epoch per run of the training cell, which is run twice
# scenario: clean
# order: 0 1 2 3 3
# expert: nothing to fix: the discriminator step backpropagates through disc(fake.detach()) and disc(real) only, and the generator step builds its own graph from new noise, so no graph is shared between the two backward calls or carried from one batch (or one run of the training cell) to the next
# %%
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from Generator import Generator
from Discriminator import Discriminator
from noise import get_noise
from loss import get_gen_loss, get_disc_loss

torch.manual_seed(0)
# %%
criterion = nn.BCEWithLogitsLoss()
n_epochs = 1
z_dim = 64
batch_size = 16
lr = 0.00001

# random images in [0, 1] stand in for MNIST('data', transform=transforms.ToTensor())
images = torch.rand(64, 1, 28, 28)
labels = torch.randint(0, 10, (64,))
dataloader = DataLoader(
    TensorDataset(images, labels),
    batch_size=batch_size,
    shuffle=True
)
# %%
device = torch.device('cpu')
gen = Generator(z_dim).to(device)
gen_opt = torch.optim.Adam(gen.parameters(), lr=lr)
disc = Discriminator().to(device)
disc_opt = torch.optim.Adam(disc.parameters(), lr=lr)

mean_generator_loss = 0
mean_discriminator_loss = 0
# %%
for epoch in range(n_epochs):
    # Dataloader returns the batches
    for real, _ in dataloader:
        cur_batch_size = len(real)

        # Flatten the batch of real images from the dataset
        real = real.view(cur_batch_size, -1).to(device)

        ### Update discriminator ###
        # Zero out the gradients before backpropagation
        disc_opt.zero_grad()

        # Calculate discriminator loss
        disc_loss = get_disc_loss(gen, disc, criterion, real, cur_batch_size, z_dim, device)

        # Update gradients
        disc_loss.backward(retain_graph=True)

        # Update optimizer
        disc_opt.step()

        gen_opt.zero_grad()
        gen_loss = get_gen_loss(gen, disc, criterion, cur_batch_size, z_dim, device)
        gen_loss.backward()
        gen_opt.step()

        # Keep track of the average discriminator loss
        mean_discriminator_loss += disc_loss.item()

        # Keep track of the average generator loss
        mean_generator_loss += gen_loss.item()

    mean_generator_loss /= len(dataloader)
    mean_discriminator_loss /= len(dataloader)
    print(f"epoch {epoch + 1}: Generator loss: {mean_generator_loss}, discriminator loss:{mean_discriminator_loss}")
    mean_generator_loss = 0
    mean_discriminator_loss = 0
