import torch
import torch.nn as nn

torch.manual_seed(0)


class GatedLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 6)
        self.out = nn.Linear(6, 1)

    def forward(self, x, mask):
        h = torch.sigmoid(self.fc(x))
        h = h * mask
        return self.out(h)


model = GatedLayer()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(4, 6)
    mask = (torch.rand(4, 6) > 0.3).float()
    loss = model(x, mask).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
