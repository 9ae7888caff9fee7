import math
import torch
import torch.nn as nn

torch.manual_seed(0)


class AffineCoupling(nn.Module):
    def __init__(self, hidden=16, flip=False):
        super().__init__()
        self.flip = flip
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, x):
        x1, x2 = x[:, :1], x[:, 1:]
        if self.flip:
            x1, x2 = x2, x1
        s, t = self.net(x1).chunk(2, dim=1)
        s = torch.tanh(s)
        y2 = x2 * torch.exp(s) + t
        y = torch.cat([y2, x1] if self.flip else [x1, y2], dim=1)
        return y, s.sum(dim=1)


class RealNVP(nn.Module):
    def __init__(self, n_layers=4):
        super().__init__()
        self.layers = nn.ModuleList([AffineCoupling(flip=i % 2 == 1) for i in range(n_layers)])

    def forward(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det


def sample_data(n):
    centers = torch.tensor([[2.0, 0.0], [-2.0, 0.0]])
    return centers[torch.randint(0, 2, (n,))] + 0.3 * torch.randn(n, 2)


flow = RealNVP()
opt = torch.optim.Adam(flow.parameters(), lr=1e-3)
nll_sum = 0.0
seen = 0
for step in range(6):
    x = sample_data(64)
    z, log_det = flow(x)
    log_pz = -0.5 * (z ** 2).sum(dim=1) - math.log(2 * math.pi)
    nll = -(log_pz + log_det).mean()
    opt.zero_grad()
    nll.backward()
    nll_sum += nll.item()
    seen += 1
    opt.step()
running_nll = nll_sum / seen
