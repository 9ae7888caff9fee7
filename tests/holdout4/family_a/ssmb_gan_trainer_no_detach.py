# cause: shared_subgraph_multiple_backward
# line: 23
# why: d_step backpropagates through the generator output without detach, so g_step's backward hits G's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F



class GANTrainer:
    def __init__(self, zdim=4, xdim=2):
        self.G = nn.Sequential(nn.Linear(zdim, 16), nn.ReLU(), nn.Linear(16, xdim))
        self.D = nn.Sequential(nn.Linear(xdim, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-3, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-3, betas=(0.5, 0.999))
        self.zdim = zdim
        self.history = []

    def d_step(self, real, fake):
        self.opt_d.zero_grad()
        ones = torch.ones(real.shape[0], 1)
        zeros = torch.zeros(fake.shape[0], 1)
        d_loss = (F.binary_cross_entropy_with_logits(self.D(real), ones)
                  + F.binary_cross_entropy_with_logits(self.D(fake), zeros))
        d_loss.backward()
        self.opt_d.step()
        return d_loss.item()

    def g_step(self, fake):
        self.opt_g.zero_grad()
        g_loss = F.binary_cross_entropy_with_logits(self.D(fake), torch.ones(fake.shape[0], 1))
        g_loss.backward()
        self.opt_g.step()
        return g_loss.item()

    def train(self, data, steps):
        for step in range(steps):
            real = data[torch.randint(0, len(data), (32,))]
            fake = self.G(torch.randn(32, self.zdim))
            self.history.append((self.d_step(real, fake), self.g_step(fake)))


torch.manual_seed(0)
ring = torch.randn(256, 2)
ring = 2 * ring / ring.norm(dim=1, keepdim=True)
gan = GANTrainer()
gan.train(ring, steps=10)
print(gan.history[-1])
