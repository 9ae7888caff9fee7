# source: https://github.com/lucidrains/denoising-diffusion-pytorch/issues/109
# style: diffusion
# cause: computed_before_loop
# line: 58
# expert: move the Conv1d that converts the data to the network's input shape inside the training loop (recompute it every step) instead of once before the loop
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Unet1D(nn.Module):
    def __init__(self, dim, channels=4):
        super().__init__()
        self.channels = channels
        self.time_mlp = nn.Sequential(nn.Linear(1, dim), nn.GELU())
        self.down = nn.Conv1d(channels, dim, 3, padding=1)
        self.up = nn.Conv1d(dim, channels, 3, padding=1)

    def forward(self, x, t):
        h = self.down(x) + self.time_mlp(t.float().unsqueeze(-1) / 100.0).unsqueeze(-1)
        return self.up(F.silu(h))


class GaussianDiffusion1D(nn.Module):
    def __init__(self, model, seq_length, timesteps=100):
        super().__init__()
        self.model = model
        self.seq_length = seq_length
        self.num_timesteps = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.register_buffer('sqrt_alphas_cumprod', alphas_cumprod.sqrt())
        self.register_buffer('sqrt_one_minus_alphas_cumprod', (1.0 - alphas_cumprod).sqrt())

    def q_sample(self, x_start, t, noise):
        return (self.sqrt_alphas_cumprod[t].view(-1, 1, 1) * x_start
                + self.sqrt_one_minus_alphas_cumprod[t].view(-1, 1, 1) * noise)

    def forward(self, img):
        b = img.shape[0]
        t = torch.randint(0, self.num_timesteps, (b,))
        noise = torch.randn_like(img)
        x = self.q_sample(img, t, noise)
        model_out = self.model(x, t)
        return F.mse_loss(model_out, noise)


model = Unet1D(dim=16, channels=4)
diffusion = GaussianDiffusion1D(model, seq_length=32, timesteps=100)

raw_data = torch.rand(8, 2, 32)  # my own signals: 2 channels
to_input = nn.Conv1d(2, 4, kernel_size=1)  # convert my data to the network's input shape

opt = torch.optim.Adam(diffusion.parameters(), lr=1e-3)
for step in range(5):
    training_seq = to_input(raw_data)
    loss = diffusion(training_seq)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(step, loss.item())
