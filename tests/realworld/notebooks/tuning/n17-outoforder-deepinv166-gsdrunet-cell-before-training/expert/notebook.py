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
