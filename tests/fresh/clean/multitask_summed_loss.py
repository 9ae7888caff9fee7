import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(6, 16), nn.ReLU())
        self.cls = nn.Linear(16, 3)
        self.reg = nn.Linear(16, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.cls(h), self.reg(h)


net = Net()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(3):
    x = torch.randn(8, 6)
    logits, value = net(x)
    losses = {
        "cls": F.cross_entropy(logits, torch.randint(0, 3, (8,))),
        "reg": F.mse_loss(value, torch.randn(8, 1)),
    }
    total = sum(losses.values())
    opt.zero_grad()
    total.backward()
    opt.step()
