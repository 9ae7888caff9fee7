# source: https://github.com/cy-xu/simple_CycleGAN/issues/3 (the train() iteration of simple_cygan.py split into notebook cells: the X -> Y' -> X^ cycle, the Y -> X' -> Y^ cycle and the netD_x / netD_y updates; small stand-ins for ResnetGenerator, NLayerDiscriminator and GANLoss of model.py, one random horse/zebra pair instead of the dataset, CPU, no torchsummary/visdom/snapshots)
# scenario: gan_multiloss
# cause: inplace_modified_saved_tensor
# root: cell 2 line 22
# expert: pred_fake = netD_x(fake_y) feeds the discriminator the generator output made in the X-cycle cell without detaching it, so loss_D_x.backward() runs back through netG_x, whose weights optimizer_g.step() has since updated in place (the retained graph still needs the old weight versions). As explained in the linked pytorch/pytorch#39141 (the parameters are updated in place but needed afterwards), the discriminator step must not backpropagate into the generators: feed netD_x(fake_y.detach()) and netD_y(fake_x.detach()), as the CycleGAN code this repository follows does in backward_D_basic
# %%
import itertools
import torch as t
import torch.nn as nn

t.manual_seed(0)


class ResnetGenerator(nn.Module):
    # stand-in for model.ResnetGenerator (conv -> resblock -> conv, tanh)
    def __init__(self, opt):
        super().__init__()
        self.inc = nn.Conv2d(opt.input_nc, opt.ngf, 3, padding=1)
        self.res = nn.Conv2d(opt.ngf, opt.ngf, 3, padding=1)
        self.outc = nn.Conv2d(opt.ngf, opt.output_nc, 3, padding=1)

    def forward(self, x):
        h = t.relu(self.inc(x))
        h = h + t.relu(self.res(h))
        return t.tanh(self.outc(h))


class NLayerDiscriminator(nn.Module):
    # stand-in for model.NLayerDiscriminator (PatchGAN)
    def __init__(self, opt):
        super().__init__()
        self.model = nn.Sequential(
            nn.Conv2d(opt.input_nc, opt.ndf, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(opt.ndf, 1, 4, stride=1, padding=1))

    def forward(self, x):
        return self.model(x)


class GANLoss(nn.Module):
    def __init__(self, gan_mode='lsgan'):
        super().__init__()
        self.loss = nn.MSELoss()

    def forward(self, prediction, target_is_real):
        target = t.ones_like(prediction) if target_is_real else t.zeros_like(prediction)
        return self.loss(prediction, target)


class Config(object):
    def __init__(self):
        self.input_nc = 3
        self.output_nc = 3
        self.ngf = 8
        self.ndf = 8
        self.beta1 = 0.5
        self.g_lr = 2e-4
        self.d_lr = 2e-4
        self.crop_size = 16


opt = Config()
device = t.device('cpu')
data = {'A': t.rand(1, 3, opt.crop_size, opt.crop_size) * 2 - 1,
        'B': t.rand(1, 3, opt.crop_size, opt.crop_size) * 2 - 1}
# %%
netG_x = ResnetGenerator(opt)
netG_y = ResnetGenerator(opt)
netD_x = NLayerDiscriminator(opt)
netD_y = NLayerDiscriminator(opt)

optimizer_g = t.optim.Adam(itertools.chain(netG_x.parameters(), netG_y.parameters()),
                           lr=opt.g_lr, betas=(opt.beta1, 0.999))
optimizer_d = t.optim.Adam(itertools.chain(netD_x.parameters(), netD_y.parameters()),
                           lr=opt.d_lr, betas=(opt.beta1, 0.999))

lambda_X = 10.0  # weight for cycle loss (A -> B -> A^)
lambda_Y = 10.0  # weight for cycle loss (B -> A -> B^)
lambda_identity = 0.5

criterionGAN = GANLoss(gan_mode='lsgan')
criterionCycle = nn.L1Loss()
criterionIdt = nn.L1Loss()

real_x = data['A'].to(device)
real_y = data['B'].to(device)
# %%
######################
# X -> Y' -> X^ cycle
######################

optimizer_g.zero_grad()  # set g_x and g_y gradients to zero

fake_y = netG_x(real_x)         # X -> Y'
prediction = netD_x(fake_y)     #netD_x provide feedback to netG_x
loss_G_X = criterionGAN(prediction, True)

# cycle_consistance
x_hat = netG_y(fake_y)          # Y' -> X^
# Forward cycle loss x^ = || G_y(G_x(real_x)) ||
loss_cycle_X = criterionCycle(x_hat, real_x) * lambda_X

# identity loss
idt_x = netG_x(real_y)
loss_idt_x = criterionIdt(idt_x, real_y) * lambda_Y * lambda_identity

loss_X = loss_G_X + loss_cycle_X + loss_idt_x
loss_X.backward(retain_graph=True)
optimizer_g.step()
print('loss_X', loss_X.item())
# %%
######################
# Y -> X' -> Y^ cycle
######################

optimizer_g.zero_grad()  # set g_x and g_y gradients to zero

fake_x = netG_y(real_y)         # Y -> X'
prediction = netD_y(fake_x)
loss_G_Y = criterionGAN(prediction, True)

y_hat = netG_x(fake_x)          # Y -> X' -> Y^
# Forward cycle loss y^ = || G_x(G_y(real_y)) ||
loss_cycle_Y = criterionCycle(y_hat, real_y) * lambda_Y

# identity loss
idt_y = netG_y(real_x)
loss_idt_y = criterionIdt(idt_y, real_x) * lambda_X * lambda_identity

loss_Y = loss_G_Y + loss_cycle_Y + loss_idt_y
loss_Y.backward(retain_graph=True)
optimizer_g.step()
print('loss_Y', loss_Y.item())
# %%
######################
# netD_x
######################

optimizer_d.zero_grad()

# loss_real
pred_real = netD_x(real_y)
loss_D_x_real = criterionGAN(pred_real, True)

# loss_fake
pred_fake = netD_x(fake_y.detach())
loss_D_x_fake = criterionGAN(pred_fake, False)

# loss and backward
loss_D_x = (loss_D_x_real + loss_D_x_fake) * 0.5

loss_D_x.backward()
optimizer_d.step()

######################
# netD_y
######################

optimizer_d.zero_grad()

# loss_real
pred_real = netD_y(real_x)
loss_D_y_real = criterionGAN(pred_real, True)

# loss_fake
pred_fake = netD_y(fake_x.detach())
loss_D_y_fake = criterionGAN(pred_fake, False)

# loss and backward
loss_D_y = (loss_D_y_real + loss_D_y_fake) * 0.5

loss_D_y.backward()
optimizer_d.step()
print('loss_D_x', loss_D_x.item(), 'loss_D_y', loss_D_y.item())
