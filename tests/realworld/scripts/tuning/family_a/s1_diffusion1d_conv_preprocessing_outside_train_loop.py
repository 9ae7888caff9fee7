# source: https://github.com/lucidrains/denoising-diffusion-pytorch/issues/109
# style: diffusion
# cause: computed_before_loop
# line: 58
# expert: the Conv1d that reshapes the raw data to the network's input is applied once, outside the training loop, so every step's loss backpropagates into that one conv graph; do the conversion inside the loop (or under torch.no_grad() if it is not meant to train), as the reporter found
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def linear_beta_schedule(timesteps):
    scale = 1000 / timesteps
    return torch.linspace(scale * 0.0001, scale * 0.02, timesteps)


class Unet1D(nn.Module):
    def __init__(self, dim=8, channels=4):
        super().__init__()
        self.channels = channels
        self.time_mlp = nn.Sequential(nn.Linear(1, dim), nn.GELU())
        self.inp = nn.Conv1d(channels, dim, 3, padding=1)
        self.out = nn.Conv1d(dim, channels, 3, padding=1)

    def forward(self, x, t):
        h = self.inp(x) + self.time_mlp(t.float().unsqueeze(-1) / 100).unsqueeze(-1)
        return self.out(F.gelu(h))


class GaussianDiffusion1D(nn.Module):
    def __init__(self, model, seq_length, timesteps=100):
        super().__init__()
        self.model, self.seq_length, self.num_timesteps = model, seq_length, timesteps
        betas = linear_beta_schedule(timesteps)
        alphas_cumprod = torch.cumprod(1. - betas, dim=0)
        self.register_buffer('sqrt_alphas_cumprod', torch.sqrt(alphas_cumprod))
        self.register_buffer('sqrt_one_minus_alphas_cumprod', torch.sqrt(1. - alphas_cumprod))

    def q_sample(self, x_start, t, noise):
        return (self.sqrt_alphas_cumprod[t].view(-1, 1, 1) * x_start +
                self.sqrt_one_minus_alphas_cumprod[t].view(-1, 1, 1) * noise)

    def forward(self, img):
        b = img.shape[0]
        t = torch.randint(0, self.num_timesteps, (b,)).long()
        noise = torch.randn_like(img)
        x = self.q_sample(img, t, noise)
        return F.mse_loss(self.model(x, t), noise)


model = Unet1D(dim=8, channels=4)
diffusion = GaussianDiffusion1D(model, seq_length=16, timesteps=100)

raw_data = torch.rand(6, 1, 16)                 # my data has 1 channel
conv1D = nn.Conv1d(1, 4, kernel_size=1)          # convert to the network's 4 input channels
training_seq = conv1D(raw_data)

optimizer = torch.optim.Adam(list(diffusion.parameters()) + list(conv1D.parameters()), lr=8e-5)
for step in range(3):
    optimizer.zero_grad()
    loss = diffusion(training_seq)
    loss.backward()
    optimizer.step()
    print(step, loss.item())
