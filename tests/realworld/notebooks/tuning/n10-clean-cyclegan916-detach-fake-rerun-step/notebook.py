# source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/916
# scenario: clean
# order: 0 1 2 3 3
# expert: clean: as the maintainer answers, backward_D_basic feeds fake.detach() to the discriminator so loss_D never reaches the generators, while backward_G uses the undetached fakes because G needs those gradients; the generator graph is backpropagated once (by loss_G) and the discriminators are frozen during it, and re-running the training-step cell is fine because it recomputes the forward pass and every loss
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)


def make_generator():
    return nn.Sequential(nn.Conv2d(3, 8, 3, 1, 1), nn.InstanceNorm2d(8), nn.ReLU(True),
                         nn.Conv2d(8, 3, 3, 1, 1), nn.Tanh())


def make_discriminator():  # a tiny PatchGAN
    return nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2, True), nn.Conv2d(8, 1, 4, 1, 1))


def set_requires_grad(nets, requires_grad=False):
    for net in nets:
        for param in net.parameters():
            param.requires_grad = requires_grad
# %%
netG_A, netG_B = make_generator(), make_generator()
netD_A, netD_B = make_discriminator(), make_discriminator()
criterionGAN = nn.MSELoss()  # lsgan
criterionCycle = nn.L1Loss()
criterionIdt = nn.L1Loss()
lambda_A, lambda_B, lambda_idt = 10.0, 10.0, 0.5
optimizer_G = torch.optim.Adam(list(netG_A.parameters()) + list(netG_B.parameters()), lr=2e-4, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(list(netD_A.parameters()) + list(netD_B.parameters()), lr=2e-4, betas=(0.5, 0.999))
real_A = torch.rand(2, 3, 16, 16) * 2 - 1
real_B = torch.rand(2, 3, 16, 16) * 2 - 1


def gan_loss(prediction, target_is_real):
    target = torch.ones_like(prediction) if target_is_real else torch.zeros_like(prediction)
    return criterionGAN(prediction, target)
# %%
def backward_D_basic(netD, real, fake):
    # Real
    pred_real = netD(real)
    loss_D_real = gan_loss(pred_real, True)
    # Fake
    pred_fake = netD(fake.detach())
    loss_D_fake = gan_loss(pred_fake, False)
    # Combined loss and calculate gradients
    loss_D = (loss_D_real + loss_D_fake) * 0.5
    loss_D.backward()
    return loss_D


def backward_G():
    idt_A = netG_A(real_B)
    loss_idt_A = criterionIdt(idt_A, real_B) * lambda_B * lambda_idt
    idt_B = netG_B(real_A)
    loss_idt_B = criterionIdt(idt_B, real_A) * lambda_A * lambda_idt
    # GAN loss D_A(G_A(A)) and D_B(G_B(B))
    loss_G_A = gan_loss(netD_A(fake_B), True)
    loss_G_B = gan_loss(netD_B(fake_A), True)
    # cycle losses
    loss_cycle_A = criterionCycle(rec_A, real_A) * lambda_A
    loss_cycle_B = criterionCycle(rec_B, real_B) * lambda_B
    loss_G = loss_G_A + loss_G_B + loss_cycle_A + loss_cycle_B + loss_idt_A + loss_idt_B
    loss_G.backward()
    return loss_G
# %%
# forward
fake_B = netG_A(real_A)  # G_A(A)
rec_A = netG_B(fake_B)   # G_B(G_A(A))
fake_A = netG_B(real_B)  # G_B(B)
rec_B = netG_A(fake_A)   # G_A(G_B(B))
# G_A and G_B
set_requires_grad([netD_A, netD_B], False)  # Ds require no gradients when optimizing Gs
optimizer_G.zero_grad()
loss_G = backward_G()
optimizer_G.step()
# D_A and D_B
set_requires_grad([netD_A, netD_B], True)
optimizer_D.zero_grad()
loss_D_A = backward_D_basic(netD_A, real_B, fake_B)
loss_D_B = backward_D_basic(netD_B, real_A, fake_A)
optimizer_D.step()
print(loss_G.item(), loss_D_A.item(), loss_D_B.item())
