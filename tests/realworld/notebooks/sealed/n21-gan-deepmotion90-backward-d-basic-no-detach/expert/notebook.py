# source: variant of https://github.com/DeepMotionEditing/deep-motion-editing/issues/90
# scenario: gan_multiloss
# cause: shared_subgraph_multiple_backward
# root: cell 1 line 5
# expert: classify fake.detach() in backward_D_basic (pred_fake = netD(fake.detach()), as models/architecture.py does): the generator step already backpropagated through the generator graph that produced fake, so the discriminator step must stop there
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
# tiny stand-ins for the retargeting generator (motion encoder/decoder) and the motion discriminator
netG = nn.Sequential(nn.Linear(12, 32), nn.LeakyReLU(0.2), nn.Linear(32, 12))
netD = nn.Sequential(nn.Linear(12, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.9, 0.999))
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.9, 0.999))
mse = nn.MSELoss()

def criterion_gan(pred, target_is_real):
    target = torch.ones_like(pred) if target_is_real else torch.zeros_like(pred)
    return mse(pred, target)

def set_requires_grad(nets, requires_grad=False):
    for net in nets:
        for param in net.parameters():
            param.requires_grad = requires_grad

motions_a, motions_b = torch.randn(8, 12), torch.randn(8, 12)
# %%
def backward_D_basic(netD, real, fake):
    pred_real = netD(real)
    loss_D_real = criterion_gan(pred_real, True)

    pred_fake = netD(fake.detach())
    loss_D_fake = criterion_gan(pred_fake, False)

    loss_D = (loss_D_real + loss_D_fake) * 0.5
    loss_D.backward()
    return loss_D
# %%
# forward, then update G (D frozen)
fake_b = netG(motions_a)
set_requires_grad([netD], False)
optimizerG.zero_grad()
loss_G_GAN = criterion_gan(netD(fake_b), True)
loss_rec = mse(netG(motions_b), motions_b)
loss_G = loss_G_GAN + 5 * loss_rec
loss_G.backward()
optimizerG.step()
print('G', loss_G.item())
# %%
# update D
set_requires_grad([netD], True)
optimizerD.zero_grad()
loss_D = backward_D_basic(netD, motions_b, fake_b)
optimizerD.step()
print('D', loss_D.item())
