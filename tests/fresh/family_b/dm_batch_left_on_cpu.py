# cause: device_mismatch
# line: 14
# why: The model was moved to CUDA but the input batch stays on the CPU, so the first Linear mixes devices.
# needs: cuda
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda")
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(5, 4), torch.randn(5, 1)) for _ in range(3)]
for x, y in data:
    out = model(x)
    loss = nn.functional.mse_loss(out, y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
