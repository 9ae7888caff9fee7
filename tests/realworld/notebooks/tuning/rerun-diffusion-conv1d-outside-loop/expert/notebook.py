# expert fix of rerun-diffusion-conv1d-outside-loop
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

class TinyUnet1D(nn.Module):
    def __init__(self, channels, dim=16):
        super().__init__()
        self.time_mlp = nn.Linear(1, dim)
        self.inp = nn.Conv1d(channels, dim, 3, padding=1)
        self.out = nn.Conv1d(dim, channels, 3, padding=1)

    def forward(self, x, t):
        h = self.inp(x) + self.time_mlp(t.float().unsqueeze(-1) / 100)[:, :, None]
        return self.out(F.silu(h))

class GaussianDiffusion1D(nn.Module):
    def __init__(self, model, seq_length, timesteps=100):
        super().__init__()
        self.model = model
        self.seq_length = seq_length
        self.timesteps = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.register_buffer('alphas_cumprod', torch.cumprod(1 - betas, 0))

    def forward(self, x0):
        t = torch.randint(0, self.timesteps, (x0.shape[0],))
        noise = torch.randn_like(x0)
        a = self.alphas_cumprod[t][:, None, None]
        xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
        return F.mse_loss(self.model(xt, t), noise)
# %%
model = TinyUnet1D(channels=8)
diffusion = GaussianDiffusion1D(model, seq_length=32, timesteps=100)
optimizer = torch.optim.Adam(diffusion.parameters(), lr=1e-3)
# %%
# the recordings have 5 channels, the network expects 8
raw_data = torch.rand(16, 5, 32)
to_input = nn.Conv1d(5, 8, kernel_size=1)
training_seq = to_input(raw_data).detach()
# %%
loss = diffusion(training_seq)
loss.backward()
optimizer.step()
optimizer.zero_grad()
print(loss.item())
