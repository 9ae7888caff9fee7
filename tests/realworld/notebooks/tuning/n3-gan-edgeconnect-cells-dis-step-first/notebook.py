# source: variant of https://github.com/knazeri/edge-connect/issues/152
# scenario: gan_multiloss
# cause: inplace_modified_saved_tensor
# root: cell 2 line 3
# expert: the discriminator cell steps dis_optimizer before the generator cell backpropagates gen_loss, whose adversarial and feature-matching terms went through the discriminator's (now updated in place) weights; run the generator's backward/step before the discriminator's step (the swap from the thread), or step both after both backward passes
# %%
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(10)
generator = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.InstanceNorm2d(8), nn.ReLU(True), nn.Conv2d(8, 1, 3, padding=1), nn.Sigmoid())
discriminator = nn.Sequential(nn.Conv2d(2, 8, 4, stride=2, padding=1), nn.LeakyReLU(0.2, inplace=True), nn.Conv2d(8, 1, 3, padding=1), nn.Sigmoid())
adversarial_loss = nn.BCELoss()
l1_loss = nn.L1Loss()
gen_optimizer = optim.Adam(generator.parameters(), lr=0.0001, betas=(0.0, 0.9))
dis_optimizer = optim.Adam(discriminator.parameters(), lr=0.00001, betas=(0.0, 0.9))
images = torch.rand(2, 3, 8, 8)
edges = (torch.rand(2, 1, 8, 8) > 0.8).float()
masks = (torch.rand(2, 1, 8, 8) > 0.5).float()
# %%
gen_optimizer.zero_grad()
dis_optimizer.zero_grad()
edges_masked = edges * (1 - masks)
images_masked = images * (1 - masks) + masks
outputs = generator(torch.cat((images_masked[:, :2], edges_masked), dim=1))
# discriminator loss
dis_real = discriminator(torch.cat((images[:, :1], edges), dim=1))
dis_fake = discriminator(torch.cat((images[:, :1], outputs.detach()), dim=1))
dis_loss = (adversarial_loss(dis_real, torch.ones_like(dis_real)) + adversarial_loss(dis_fake, torch.zeros_like(dis_fake))) / 2
# generator adversarial loss
gen_fake = discriminator(torch.cat((images[:, :1], outputs), dim=1))
gen_loss = adversarial_loss(gen_fake, torch.ones_like(gen_fake)) + l1_loss(outputs, edges)
# %%
# update discriminator
dis_loss.backward()
dis_optimizer.step()
print('l_d1', dis_loss.item())
# %%
# update generator
gen_loss.backward()
gen_optimizer.step()
print('l_g1', gen_loss.item())
