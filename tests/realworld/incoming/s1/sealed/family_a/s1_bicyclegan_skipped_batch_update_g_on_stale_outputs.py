# source: https://github.com/junyanz/BicycleGAN/issues/21
# style: gan
# cause: tensor_reused_across_iterations
# line: 99
# expert: when the last batch has size 1, update_D returns early ("skip this point") without running forward(), but update_G still runs backward_EG on the fake_B_encoded/mu/logvar attributes left from the previous iteration, whose graph was already freed; skip the whole iteration (check is_skip() in the training loop before update_D/update_G)
import torch
import torch.nn as nn

torch.manual_seed(0)


class BiCycleGANModel:
    def __init__(self, batch_size=2, nz=4):
        self.batch_size, self.nz = batch_size, nz
        self.netG = nn.Sequential(nn.Linear(8 + nz, 16), nn.ReLU(), nn.Linear(16, 8))
        self.netE = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2 * nz))
        self.netD = nn.Sequential(nn.Linear(16, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4)
        self.optimizer_E = torch.optim.Adam(self.netE.parameters(), lr=2e-4)
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=2e-4)
        self.criterionL1 = nn.L1Loss()

    def set_input(self, input):
        self.real_A, self.real_B = input['A'], input['B']

    def is_skip(self):
        return self.real_A.size(0) < self.batch_size

    def set_requires_grad(self, net, flag):
        for p in net.parameters():
            p.requires_grad = flag

    def encode(self, input_image):
        mu, logvar = self.netE(input_image).chunk(2, dim=1)
        std = logvar.mul(0.5).exp_()
        eps = torch.randn(std.size(0), std.size(1))
        return eps.mul(std).add_(mu), mu, logvar

    def forward(self):
        self.z_encoded, self.mu, self.logvar = self.encode(self.real_B)
        self.fake_B_encoded = self.netG(torch.cat([self.real_A, self.z_encoded], 1))
        self.z_random = torch.randn(self.real_A.size(0), self.nz)
        self.fake_B_random = self.netG(torch.cat([self.real_A, self.z_random], 1))
        self.mu2, logvar2 = self.netE(self.fake_B_random).chunk(2, dim=1)
        self.fake_data_encoded = torch.cat([self.real_A, self.fake_B_encoded], 1)
        self.real_data_encoded = torch.cat([self.real_A, self.real_B], 1)
        self.fake_data_random = torch.cat([self.real_A, self.fake_B_random], 1)

    def backward_D(self):
        pred_fake = self.netD(self.fake_data_encoded.detach())
        pred_real = self.netD(self.real_data_encoded)
        self.loss_D = ((pred_fake ** 2).mean() + ((pred_real - 1) ** 2).mean())
        self.loss_D.backward()

    def backward_EG(self):
        pred_fake = self.netD(self.fake_data_encoded)
        self.loss_G_GAN = ((pred_fake - 1) ** 2).mean()
        pred_fake2 = self.netD(self.fake_data_random)
        self.loss_G_GAN2 = ((pred_fake2 - 1) ** 2).mean()
        self.loss_kl = torch.sum(1 + self.logvar - self.mu.pow(2) - self.logvar.exp()) * (-0.5 * 0.01)
        self.loss_G_L1 = self.criterionL1(self.fake_B_encoded, self.real_B) * 10.0
        self.loss_G = self.loss_G_GAN + self.loss_G_GAN2 + self.loss_G_L1 + self.loss_kl
        self.loss_G.backward(retain_graph=True)

    def backward_G_alone(self):
        self.loss_z_L1 = torch.mean(torch.abs(self.mu2 - self.z_random)) * 0.5
        self.loss_z_L1.backward()

    def update_D(self, data):
        self.set_requires_grad(self.netD, True)
        self.set_input(data)
        if self.is_skip():
            print('skip this point data_size = %d' % self.real_A.size(0))
            return
        self.forward()
        self.optimizer_D.zero_grad()
        self.backward_D()
        self.optimizer_D.step()

    def update_G(self):
        self.set_requires_grad(self.netD, False)
        self.optimizer_E.zero_grad()
        self.optimizer_G.zero_grad()
        self.backward_EG()
        # update G alone
        self.set_requires_grad(self.netE, False)
        self.backward_G_alone()
        self.set_requires_grad(self.netE, True)
        self.optimizer_E.step()
        self.optimizer_G.step()


model = BiCycleGANModel()
dataset = [{'A': torch.randn(2, 8), 'B': torch.randn(2, 8)}, {'A': torch.randn(2, 8), 'B': torch.randn(2, 8)},
           {'A': torch.randn(1, 8), 'B': torch.randn(1, 8)}]
for epoch in range(1):
    for i, data in enumerate(dataset):
        model.update_D(data)
        model.update_G()
        print(epoch, i, model.loss_D.item())
