# source: https://pytorch.org/tutorials/beginner/dcgan_faces_tutorial.html
# scenario: clean
# order: 0 1 2 1 2
# expert: none needed: the discriminator step classifies fake.detach(), so the generator step can backpropagate through fake once; each re-run of the D cell builds a fresh fake
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
nz = 4
netG = nn.Sequential(nn.Linear(nz, 16), nn.ReLU(), nn.Linear(16, 8), nn.Tanh())
netD = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1), nn.Sigmoid())
criterion = nn.BCELoss()
real_label, fake_label = 1., 0.
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))

def real_batch(b=16):
    return torch.tanh(torch.randn(b, 8) * 0.5 + 0.5)
# %%
## (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
netD.zero_grad()
real_cpu = real_batch()
b_size = real_cpu.size(0)
label = torch.full((b_size,), real_label, dtype=torch.float)
output = netD(real_cpu).view(-1)
errD_real = criterion(output, label)
errD_real.backward()
noise = torch.randn(b_size, nz)
fake = netG(noise)
label.fill_(fake_label)
output = netD(fake.detach()).view(-1)
errD_fake = criterion(output, label)
errD_fake.backward()
errD = errD_real + errD_fake
optimizerD.step()
# %%
## (2) Update G network: maximize log(D(G(z)))
netG.zero_grad()
label.fill_(real_label)
output = netD(fake).view(-1)
errG = criterion(output, label)
errG.backward()
optimizerG.step()
print(errD.item(), errG.item())
