# %%
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(999)
nz = 4
netG = nn.Sequential(nn.Linear(nz, 16), nn.BatchNorm1d(16), nn.ReLU(True), nn.Linear(16, 8), nn.Tanh())
netD = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2, inplace=True), nn.Linear(16, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optimizerD = optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
dataloader = [torch.randn(6, 8) for _ in range(3)]
# %%
def d_step(real, fake):
    netD.zero_grad()
    label = torch.full((real.size(0),), 1.0)
    output = netD(real).view(-1)
    errD_real = criterion(output, label)
    errD_real.backward()
    label.fill_(0.0)
    output = netD(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    optimizerD.step()
    return (errD_real + errD_fake).item()

def g_step(fake):
    netG.zero_grad()
    label = torch.full((fake.size(0),), 1.0)
    output = netD(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    optimizerG.step()
    return errG.item()
# %%
for i, data in enumerate(dataloader):
    noise = torch.randn(data.size(0), nz)
    fake = netG(noise)
    errD = d_step(data, fake)
    errG = g_step(fake)
    print(i, errD, errG)
