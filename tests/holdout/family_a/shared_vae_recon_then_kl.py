# cause: shared_subgraph_multiple_backward
# line: 34
# why: recon_loss.backward() frees the encoder graph that the KL term shares, so the second backward on kl_loss fails.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class VAE(nn.Module):
    def __init__(self, d=12, z=2):
        super().__init__()
        self.enc = nn.Linear(d, 16)
        self.mu = nn.Linear(16, z)
        self.logvar = nn.Linear(16, z)
        self.dec = nn.Sequential(nn.Linear(z, 16), nn.ReLU(), nn.Linear(16, d))

    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


def train_one_epoch(model, loader, optimizer, beta=1.0):
    model.train()
    total = 0.0
    for x in loader:
        recon, mu, logvar = model(x)
        recon_loss = F.mse_loss(recon, x, reduction="sum") / x.size(0)
        kl_loss = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1))
        optimizer.zero_grad()
        recon_loss.backward()
        (beta * kl_loss).backward()
        optimizer.step()
        total += recon_loss.item() + kl_loss.item()
    return total / len(loader)


model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = [torch.randn(8, 12) for _ in range(3)]
for epoch in range(2):
    train_one_epoch(model, loader, optimizer)
