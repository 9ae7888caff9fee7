# source: https://github.com/yunjey/pytorch-tutorial/issues/145 (tutorials/03-advanced/generative_adversarial_network/main.py with the change the reporter tried, deleting the second z = torch.randn(...) line so that the generator step reuses the discriminator step's z: "I tried to delete L115, it works fine"; the discriminator and generator steps as two notebook cells run twice, random 28x28 images instead of MNIST, smaller hidden size)
# scenario: clean
# order: 0 1 2 3 2 3
# expert: nothing to fix: the generator step runs fake_images = G(z) and D(fake_images) again after d_optimizer.step(), so g_loss has a fresh graph even when z is reused, which is why the reporter saw it work (the answer in the thread: the two lines only draw different random tensors)
# %%
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device('cpu')

# Hyper-parameters
latent_size = 64
hidden_size = 32
image_size = 784
batch_size = 16

# stand-in for the MNIST data_loader: one batch of images in [-1, 1]
images = torch.rand(batch_size, 1, 28, 28) * 2 - 1
# %%
# Discriminator
D = nn.Sequential(
    nn.Linear(image_size, hidden_size),
    nn.LeakyReLU(0.2),
    nn.Linear(hidden_size, hidden_size),
    nn.LeakyReLU(0.2),
    nn.Linear(hidden_size, 1),
    nn.Sigmoid())

# Generator
G = nn.Sequential(
    nn.Linear(latent_size, hidden_size),
    nn.ReLU(),
    nn.Linear(hidden_size, hidden_size),
    nn.ReLU(),
    nn.Linear(hidden_size, image_size),
    nn.Tanh())

# Device setting
D = D.to(device)
G = G.to(device)

# Binary cross entropy loss and optimizer
criterion = nn.BCELoss()
d_optimizer = torch.optim.Adam(D.parameters(), lr=0.0002)
g_optimizer = torch.optim.Adam(G.parameters(), lr=0.0002)


def reset_grad():
    d_optimizer.zero_grad()
    g_optimizer.zero_grad()
# %%
images = images.reshape(batch_size, -1).to(device)

# Create the labels which are later used as input for the BCE loss
real_labels = torch.ones(batch_size, 1).to(device)
fake_labels = torch.zeros(batch_size, 1).to(device)

# ================================================================== #
#                      Train the discriminator                       #
# ================================================================== #

# Compute BCE_Loss using real images where BCE_Loss(x, y): - y * log(D(x)) - (1-y) * log(1 - D(x))
# Second term of the loss is always zero since real_labels == 1
outputs = D(images)
d_loss_real = criterion(outputs, real_labels)
real_score = outputs

# Compute BCELoss using fake images
# First term of the loss is always zero since fake_labels == 0
z = torch.randn(batch_size, latent_size).to(device)
fake_images = G(z)
outputs = D(fake_images)
d_loss_fake = criterion(outputs, fake_labels)
fake_score = outputs

# Backprop and optimize
d_loss = d_loss_real + d_loss_fake
reset_grad()
d_loss.backward()
d_optimizer.step()
# %%
# ================================================================== #
#                        Train the generator                         #
# ================================================================== #

# Compute loss with fake images
fake_images = G(z)
outputs = D(fake_images)

# We train G to maximize log(D(G(z)) instead of minimizing log(1-D(G(z)))
# For the reason, see the last paragraph of section 3. https://arxiv.org/pdf/1406.2661.pdf
g_loss = criterion(outputs, real_labels)

# Backprop and optimize
reset_grad()
g_loss.backward()
g_optimizer.step()
print('d_loss: {:.4f}, g_loss: {:.4f}, D(x): {:.2f}, D(G(z)): {:.2f}'
      .format(d_loss.item(), g_loss.item(), real_score.mean().item(), fake_score.mean().item()))
