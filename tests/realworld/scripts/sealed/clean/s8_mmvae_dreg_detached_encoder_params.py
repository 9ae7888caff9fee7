# source: https://github.com/iffsid/mmvae/issues/4
# style: vae
# expert: In `_dreg` the posterior is rebuilt from `[p.detach() for p in model.qz_x_params]` only to stop the score-function path of log q(z|x) (the DReG estimator); the encoder still gets gradients through the reparameterised samples `zs`, whose gradient is reweighted by the hook, and `qz_x_params` is overwritten by every forward pass, so nothing stale crosses iterations; the author confirms this is intended.
import torch
import torch.distributions as dist
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def compute_microbatch_split(x, K):
    B = x.size(0)
    S = int(1e8 * (1.0 / (K * x[0].numel())))
    return min(B, S)


class VAE(nn.Module):
    def __init__(self, data_dim=10, latent_dim=2, hidden=16):
        super().__init__()
        self.pz = dist.Normal
        self.px_z = dist.Normal
        self.qz_x = dist.Normal
        self.enc = nn.Sequential(nn.Linear(data_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * latent_dim))
        self.dec = nn.Sequential(nn.Linear(latent_dim, hidden), nn.ReLU(), nn.Linear(hidden, data_dim))
        self._pz_params = nn.ParameterList([
            nn.Parameter(torch.zeros(1, latent_dim), requires_grad=False),
            nn.Parameter(torch.zeros(1, latent_dim), requires_grad=False),
        ])
        self._qz_x_params = None
        self.llik_scaling = 1.0

    @property
    def pz_params(self):
        return self._pz_params[0], F.softplus(self._pz_params[1]) + 1e-6

    @property
    def qz_x_params(self):
        if self._qz_x_params is None:
            raise NameError("qz_x params not initalised yet!")
        return self._qz_x_params

    def forward(self, x, K=1):
        mu, lv = self.enc(x).chunk(2, dim=-1)
        self._qz_x_params = (mu, F.softplus(lv) + 1e-6)
        qz_x = self.qz_x(*self._qz_x_params)
        zs = qz_x.rsample(torch.Size([K]))
        px_z = self.px_z(self.dec(zs), torch.ones(1) * 0.75)
        return qz_x, px_z, zs


def _dreg(model, x, K):
    """DREG estimate for log p_\\theta(x) -- fully vectorised."""
    _, px_z, zs = model(x, K)
    lpz = model.pz(*model.pz_params).log_prob(zs).sum(-1)
    lpx_z = px_z.log_prob(x).view(*px_z.batch_shape[:2], -1) * model.llik_scaling
    qz_x = model.qz_x(*[p.detach() for p in model.qz_x_params])  # stop-grad for \phi
    lqz_x = qz_x.log_prob(zs).sum(-1)
    lw = lpz + lpx_z.sum(-1) - lqz_x
    return lw, zs


def dreg(model, x, K, regs=None):
    S = compute_microbatch_split(x, K)
    lw, zs = zip(*[_dreg(model, _x, K) for _x in x.split(S)])
    lw = torch.cat(lw, 1)  # concat on batch
    zs = torch.cat(zs, 1)  # concat on batch
    with torch.no_grad():
        grad_wt = (lw - torch.logsumexp(lw, 0, keepdim=True)).exp()
        if zs.requires_grad:
            zs.register_hook(lambda grad: grad_wt.unsqueeze(-1) * grad)
    return (grad_wt * lw).sum()


model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, amsgrad=True)
train_loader = [torch.randn(8, 10) for _ in range(4)]
for epoch in range(2):
    model.train()
    b_loss = 0
    for i, data in enumerate(train_loader):
        optimizer.zero_grad()
        loss = -dreg(model, data, K=5)
        loss.backward()
        optimizer.step()
        b_loss += loss.item()
    print("epoch", epoch, "loss", round(b_loss / len(train_loader), 3))
