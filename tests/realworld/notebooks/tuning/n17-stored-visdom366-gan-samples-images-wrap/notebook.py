# source: variant of https://github.com/fossasia/visdom/issues/366 (visdom's pytorch_wrap as quoted in the issue, in a cut-down visdom.py next to the notebook that counts the payload instead of sending it; the generated images come from a small GAN notebook on random 8x8 'real' images, the reporter's own training code is not in the thread)
# scenario: stored_activations
# cause: numpy_on_grad_tensor
# root: file visdom.py line 8
# expert: the last generated batch kept from the training cell is still part of G's graph (requires grad), and viz.images converts every torch argument with a.cpu().numpy(), which refuses such a tensor; the fix proposed in the thread (lvdmaaten's check, PR #370) makes pytorch_wrap detach tensors that require grad before converting them (a.detach().cpu().numpy() when a.requires_grad).
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
