# %%
import torch
import torch.nn as nn
import torch.optim as optim
from types import SimpleNamespace
torch.manual_seed(0)


class UnetGenerator(nn.Module):
    """A two-level U-Net standing in for define_G(opt, norm='batch')."""

    def __init__(self, nc=3, ngf=8):
        super().__init__()
        self.down1 = nn.Sequential(nn.Conv2d(nc, ngf, 4, 2, 1), nn.LeakyReLU(0.2))
        self.down2 = nn.Sequential(nn.Conv2d(ngf, ngf * 2, 4, 2, 1), nn.BatchNorm2d(ngf * 2), nn.LeakyReLU(0.2))
        self.up2 = nn.Sequential(nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1), nn.BatchNorm2d(ngf), nn.ReLU())
        self.up1 = nn.Sequential(nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1), nn.Tanh())

    def forward(self, x):
        d1 = self.down1(x)
        d2 = self.down2(d1)
        u2 = self.up2(d2)
        return self.up1(torch.cat([u2, d1], 1))


class BasicDiscriminator(nn.Module):
    """Returns (prediction, features) like the repo's netd."""

    def __init__(self, nc=3, ndf=8):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(nc, ndf, 4, 2, 1), nn.LeakyReLU(0.2),
                                      nn.Conv2d(ndf, ndf * 2, 4, 2, 1), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2))
        self.classifier = nn.Sequential(nn.Conv2d(ndf * 2, 1, 4, 1, 0), nn.Sigmoid())

    def forward(self, x):
        features = self.features(x)
        classifier = self.classifier(features).view(-1)
        return classifier, features


def l2_loss(input, target, size_average=True):
    if size_average:
        return torch.mean(torch.pow((input - target), 2))
    return torch.pow((input - target), 2)
# %%
class Skipganomaly:
    def __init__(self, opt):
        self.opt = opt
        self.netg = UnetGenerator()
        self.netd = BasicDiscriminator()
        self.l_adv = nn.BCELoss()
        self.l_con = nn.L1Loss()
        self.l_lat = l2_loss
        self.real_label = torch.ones(size=(opt.batchsize,), dtype=torch.float32)
        self.fake_label = torch.zeros(size=(opt.batchsize,), dtype=torch.float32)
        self.netg.train()
        self.netd.train()
        self.optimizer_d = optim.Adam(self.netd.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
        self.optimizer_g = optim.Adam(self.netg.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))

    def set_input(self, input):
        self.input = input
        self.noise = torch.randn_like(input) * 0.01

    def forward(self):
        self.forward_g()
        self.forward_d()

    def forward_g(self):
        self.fake = self.netg(self.input + self.noise)

    def forward_d(self):
        self.pred_real, self.feat_real = self.netd(self.input)
        self.pred_fake, self.feat_fake = self.netd(self.fake)

    def backward_g(self):
        self.err_g_adv = self.opt.w_adv * self.l_adv(self.pred_fake, self.real_label)
        self.err_g_con = self.opt.w_con * self.l_con(self.fake, self.input)
        self.err_g_lat = self.opt.w_lat * self.l_lat(self.feat_fake, self.feat_real)

        self.err_g = self.err_g_adv + self.err_g_con + self.err_g_lat
        self.err_g.backward(retain_graph=True)

    def backward_d(self):
        # Fake
        pred_fake, _ = self.netd(self.fake.detach())
        self.err_d_fake = self.l_adv(pred_fake, self.fake_label)

        # Real
        self.err_d_real = self.l_adv(self.pred_real, self.real_label)

        # Combine losses.
        self.err_d = self.err_d_real + self.err_d_fake
        self.err_d.backward(retain_graph=True)

    def update_netg(self):
        self.optimizer_g.zero_grad()
        self.backward_g()
        self.optimizer_g.step()

    def update_netd(self):
        self.optimizer_d.zero_grad()
        self.backward_d()
        self.optimizer_d.step()

    def optimize_params(self):
        self.forward()
        self.update_netg()
        self.update_netd()
# %%
opt = SimpleNamespace(batchsize=4, isize=16, lr=2e-4, beta1=0.5, w_adv=1, w_con=50, w_lat=1)
model = Skipganomaly(opt)
netg, netd = model.netg, model.netd
train_images = torch.rand(3, opt.batchsize, 3, opt.isize, opt.isize) * 2 - 1

for epoch in range(2):
    for images in train_images:
        model.set_input(images)
        model.optimize_params()
    print(epoch, model.err_g.item(), model.err_d.item())
