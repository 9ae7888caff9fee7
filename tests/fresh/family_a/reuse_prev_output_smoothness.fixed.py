import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
frames = [torch.randn(1, 2) for _ in range(6)]

prev = None
for step, frame in enumerate(frames):
    out = model(frame)
    loss = ((out - frame) ** 2).mean()
    if prev is not None:
        loss = loss + 0.1 * ((out - prev) ** 2).mean()  # temporal smoothness
    opt.zero_grad()
    loss.backward()
    opt.step()
    prev = out.detach()
    print(step, loss.item())
