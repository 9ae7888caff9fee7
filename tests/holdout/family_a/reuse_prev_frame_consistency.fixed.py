import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FrameDenoiser(nn.Module):
    def __init__(self, d=24):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 48), nn.GELU(), nn.Linear(48, d))

    def forward(self, frame):
        return frame + self.body(frame)


def train_on_clip(model, clip, targets, optimizer, lam=0.1):
    prev_out = None
    for frame, target in zip(clip, targets):
        out = model(frame)
        loss = F.l1_loss(out, target)
        if prev_out is not None:
            loss = loss + lam * F.mse_loss(out, prev_out)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        prev_out = out.detach()


model = FrameDenoiser()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
clean_clip = torch.randn(5, 2, 24)
noisy_clip = clean_clip + 0.3 * torch.randn_like(clean_clip)
train_on_clip(model, noisy_clip, clean_clip, optimizer)
