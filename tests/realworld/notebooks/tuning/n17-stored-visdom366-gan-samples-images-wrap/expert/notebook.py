# %%
import torch
import torch.nn as nn
import visdom
torch.manual_seed(0)

viz = visdom.Visdom(env='gan')
nz = 8
netG = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(), nn.Linear(32, 64), nn.Tanh())
netD = nn.Sequential(nn.Linear(64, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid())
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
criterion = nn.BCELoss()
real_images = torch.rand(64, 64) * 2 - 1
# %%
errs = []
for i in range(5):
    real = real_images[torch.randint(0, 64, (16,))]
    noise = torch.randn(16, nz)
    fake = netG(noise)
    # (1) update D
    optimizerD.zero_grad()
    errD = criterion(netD(real), torch.ones(16, 1)) + criterion(netD(fake.detach()), torch.zeros(16, 1))
    errD.backward()
    optimizerD.step()
    # (2) update G
    optimizerG.zero_grad()
    errG = criterion(netD(fake), torch.ones(16, 1))
    errG.backward()
    optimizerG.step()
    errs.append([errD.item(), errG.item()])
viz.line(Y=torch.tensor(errs), win='losses', opts=dict(legend=['errD', 'errG']))
# %%
viz.images(fake.view(-1, 1, 8, 8), nrow=4, win='samples', opts=dict(title='fake samples'))
