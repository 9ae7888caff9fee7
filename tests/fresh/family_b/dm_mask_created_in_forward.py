# cause: device_mismatch
# line: 20
# why: forward() builds a noise mask with torch.rand on the default (CPU) device and multiplies it with the CUDA activations.
# needs: cuda
import torch
import torch.nn as nn

torch.manual_seed(0)


class NoisyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 6)
        self.fc2 = nn.Linear(6, 2)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        mask = (torch.rand(h.shape) > 0.1).float()
        h = h * mask
        return self.fc2(h)


model = NoisyNet().cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    x = torch.randn(4, 6).cuda()
    y = torch.randint(0, 2, (4,)).cuda()
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
