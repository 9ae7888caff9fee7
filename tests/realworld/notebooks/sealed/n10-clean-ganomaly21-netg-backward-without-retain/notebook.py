# source: https://github.com/samet-akcay/ganomaly/issues/21
# scenario: clean
# expert: clean: update_netd feeds self.fake.detach() to netd, so its two backward calls (err_d_real, then err_d_fake) never touch netg's graph, and update_netg re-runs netd on self.fake and backpropagates err_g once through a graph nothing has freed; as the asker observed, err_g.backward() without retain_graph=True works, and optimizer_d.step() in between only changes netd, whose new forward pass update_netg builds itself
# %%
import torch
import torch.nn as nn
import torch.optim as optim
from types import SimpleNamespace
torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, isize, nz, nc, ndf):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, nz, isize // 4, 1, 0, bias=False),
        )

    def forward(self, input):
        return self.main(input)


class Decoder(nn.Module):
    def __init__(self, isize, nz, nc, ngf):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, isize // 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False), nn.Tanh(),
        )

    def forward(self, input):
        return self.main(input)


class NetD(nn.Module):
    def __init__(self, opt):
        super().__init__()
        model = Encoder(opt.isize, 1, opt.nc, opt.ngf)
        layers = list(model.main.children())
        self.features = nn.Sequential(*layers[:-1])
        self.classifier = nn.Sequential(layers[-1])
        self.classifier.add_module('Sigmoid', nn.Sigmoid())

    def forward(self, x):
        features = self.features(x)
        classifier = self.classifier(features).view(-1, 1).squeeze(1)
        return classifier, features


class NetG(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.encoder1 = Encoder(opt.isize, opt.nz, opt.nc, opt.ngf)
        self.decoder = Decoder(opt.isize, opt.nz, opt.nc, opt.ngf)
        self.encoder2 = Encoder(opt.isize, opt.nz, opt.nc, opt.ngf)

    def forward(self, x):
        latent_i = self.encoder1(x)
        gen_imag = self.decoder(latent_i)
        latent_o = self.encoder2(gen_imag)
        return gen_imag, latent_i, latent_o
# %%
opt = SimpleNamespace(isize=16, nz=8, nc=3, ngf=8, batchsize=4, lr=2e-4, beta1=0.5, w_bce=1, w_rec=50, w_enc=1)
netg = NetG(opt)
netd = NetD(opt)
bce_criterion = nn.BCELoss()
l1l_criterion = nn.L1Loss()
l2l_criterion = nn.MSELoss()
optimizer_d = optim.Adam(netd.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
optimizer_g = optim.Adam(netg.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
real_label, fake_label = 1.0, 0.0
label = torch.empty(opt.batchsize)
# %%
def update_netd(input):
    """Update D network: maximize log(D(x)) + log(1 - D(G(z)))"""
    global fake, latent_i, latent_o, err_d_real, err_d_fake, err_d
    netd.zero_grad()
    # Train with real
    label.fill_(real_label)
    out_d_real, feat_real = netd(input)
    err_d_real = bce_criterion(out_d_real, label)
    err_d_real.backward()
    # Train with fake
    label.fill_(fake_label)
    fake, latent_i, latent_o = netg(input)
    out_d_fake, feat_fake = netd(fake.detach())
    err_d_fake = bce_criterion(out_d_fake, label)
    err_d_fake.backward()
    err_d = err_d_real + err_d_fake
    optimizer_d.step()


def update_netg(input):
    """Update G network: log(D(G(z))) + ||G(z) - x||"""
    global err_g
    netg.zero_grad()
    label.fill_(real_label)
    out_g, _ = netd(fake)
    err_g_bce = bce_criterion(out_g, label)
    err_g_l1l = l1l_criterion(fake, input)  # constrain x' to look like x
    err_g_enc = l2l_criterion(latent_o, latent_i)
    err_g = err_g_bce * opt.w_bce + err_g_l1l * opt.w_rec + err_g_enc * opt.w_enc
    err_g.backward()  # no retain_graph=True
    optimizer_g.step()
# %%
train_images = torch.rand(3, opt.batchsize, opt.nc, opt.isize, opt.isize) * 2 - 1
for epoch in range(2):
    for input in train_images:
        update_netd(input)
        update_netg(input)
    print(epoch, err_d.item(), err_g.item())
