# source: variant of https://github.com/deepinv/deepinv/issues/166 (GSPnP.potential_grad as it was before PR #167, in a cut-down deepinv.py next to the notebook with a 2-layer conv net instead of DRUNet; the notebook trains its own small denoiser on random 16x16 images and compares it with GSDRUNet in a later cell, which the user runs before the training cell)
# scenario: out_of_order
# cause: no_grad_fn
# root: file deepinv.py line 50
# order: 0 1 3 2
# expert: calling GSDRUNet leaves autograd switched off (potential_grad calls torch.set_grad_enabled(False) at the end when the model is not in its train configuration), so once the comparison cell has run, the training cell's forward passes build no graph and loss.backward() fails; deepinv's fix (PR #167) computes the gradient step inside with torch.enable_grad(): so the caller's grad mode is restored and the cell order no longer matters.
# %%
import torch
import torch.nn as nn
import deepinv as dinv
torch.manual_seed(0)

clean = torch.rand(4, 1, 16, 16)
sigma = 0.1
noisy = clean + sigma * torch.randn_like(clean)

def psnr(x, y):
    return (10 * torch.log10(1 / ((x - y) ** 2).mean())).item()
# %%
denoiser = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
optimizer = torch.optim.Adam(denoiser.parameters(), lr=1e-3)
# %%
for step in range(10):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(noisy - denoiser(noisy), clean)
    loss.backward()
    optimizer.step()
print('our denoiser PSNR', psnr(noisy - denoiser(noisy), clean))
# %%
model = dinv.models.GSDRUNet(in_channels=1, out_channels=1, pretrained=None)
x_hat = model(noisy, sigma)
print('GSDRUNet PSNR', psnr(x_hat, clean))
