# cause: shared_subgraph_multiple_backward
# line: 23
# why: The reconstruction and KL terms share the encoder graph; recon_loss.backward() frees it, then kl.backward() needs it again.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
enc = nn.Linear(8, 4)
dec = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 8))
opt_enc = torch.optim.Adam(enc.parameters(), lr=1e-3)
opt_dec = torch.optim.Adam(dec.parameters(), lr=1e-3)

for it in range(3):
    x = torch.randn(10, 8)
    mu, logvar = enc(x).chunk(2, dim=1)
    z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
    recon = dec(z)
    recon_loss = F.mse_loss(recon, x)
    kl = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
    opt_enc.zero_grad()
    opt_dec.zero_grad()
    recon_loss.backward()
    kl.backward()
    opt_enc.step()
    opt_dec.step()
    print(it, recon_loss.item(), kl.item())
