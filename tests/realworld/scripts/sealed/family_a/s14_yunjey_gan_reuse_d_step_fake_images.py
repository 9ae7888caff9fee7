# source: variant of https://github.com/yunjey/pytorch-tutorial/issues/56 (tutorials/02-intermediate/generative_adversarial_network/main.py; the issue asks why fake_images = G(z) is not detached in the discriminator step and the maintainer answers it does not matter because the generator step draws a new z and runs G again; written here with the generator step reusing the discriminator step's fake_images instead; random 28x28 images instead of MNIST, smaller layers)
# style: gan
# cause: shared_subgraph_multiple_backward
# line: 81
# expert: fake_images = G(z) of the discriminator step enters d_loss without detach, so d_loss.backward() already runs through (and frees) the generator part of that graph; the generator step then scores the same fake_images and g_loss.backward() needs those freed buffers. As the maintainer explains, the tutorial avoids this by sampling a new z and generating fake_images again in the generator step (or one detaches the fakes for the discriminator).
import torch
import torch.nn as nn

torch.manual_seed(0)

# Device configuration
device = torch.device('cpu')

# Hyper-parameters
latent_size = 16
hidden_size = 32
image_size = 784
num_epochs = 2
batch_size = 8

# Image processing / MNIST dataset stand-in: images already normalised to [-1, 1]
data_loader = [(torch.rand(batch_size, 1, 28, 28) * 2 - 1, torch.randint(0, 10, (batch_size,)))
               for _ in range(3)]

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


# Start training
total_step = len(data_loader)
for epoch in range(num_epochs):
    for i, (images, _) in enumerate(data_loader):
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

        # ================================================================== #
        #                        Train the generator                         #
        # ================================================================== #

        # Compute loss with the fake images of the discriminator step
        outputs = D(fake_images)

        # We train G to maximize log(D(G(z)) instead of minimizing log(1-D(G(z)))
        # For the reason, see the last paragraph of section 3. https://arxiv.org/pdf/1406.2661.pdf
        g_loss = criterion(outputs, real_labels)

        # Backprop and optimize
        reset_grad()
        g_loss.backward()
        g_optimizer.step()

        print('Epoch [{}/{}], Step [{}/{}], d_loss: {:.4f}, g_loss: {:.4f}, D(x): {:.2f}, D(G(z)): {:.2f}'
              .format(epoch, num_epochs, i + 1, total_step, d_loss.item(), g_loss.item(),
                      real_score.mean().item(), fake_score.mean().item()))
