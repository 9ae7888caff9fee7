# source: variant of https://github.com/psh01087/Vid-ODE/issues/6
# scenario: gan_multiloss
# cause: inplace_modified_saved_tensor
# root: cell 2 line 4
# expert: the 'Train D' cell (run first, as in the script) steps optimizer_netD while loss_netG, built in the forward cell through netD(pred_x), still needs netD's old weights; train G first and D after (the swap the thread settled on), i.e. run the 'Train G' cell's backward and step before the 'Train D' cell
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(3, 8, 3, padding=1)
        self.ode_func = nn.Conv2d(8, 8, 3, padding=1)
        self.dec = nn.Conv2d(8, 3, 3, padding=1)

    def forward(self, b, n_steps=2):
        h = torch.tanh(self.enc(b))
        preds = []
        for _ in range(n_steps):
            h = h + 0.5 * torch.tanh(self.ode_func(h))  # Euler step of the ODE
            preds.append(torch.sigmoid(self.dec(h)))
        return torch.stack(preds, 1)

class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2, True), nn.Conv2d(8, 1, 4, 1, 0))

    def forward(self, x):
        return self.net(x.flatten(0, 1))

model = Generator()
netD = Discriminator()
optimizer_netG = torch.optim.Adamax(model.parameters(), lr=1e-3)
optimizer_netD = torch.optim.Adam(netD.parameters(), lr=1e-3)
# %%
b = torch.rand(2, 3, 8, 8)
gt = torch.rand(2, 2, 3, 8, 8)
pred_x = model(b)
# Discriminator loss on detached predictions
real_logit = netD(gt)
fake_logit = netD(pred_x.detach())
loss_netD = F.binary_cross_entropy_with_logits(real_logit, torch.ones_like(real_logit)) + F.binary_cross_entropy_with_logits(fake_logit, torch.zeros_like(fake_logit))
# Generator loss: reconstruction + adversarial
loss_netG = F.l1_loss(pred_x, gt) + 0.01 * F.binary_cross_entropy_with_logits(netD(pred_x), torch.ones_like(fake_logit))
# %%
# Train D
optimizer_netD.zero_grad()
loss_netD.backward()
optimizer_netD.step()
# %%
# Train G
optimizer_netG.zero_grad()
loss_netG.backward()
optimizer_netG.step()
