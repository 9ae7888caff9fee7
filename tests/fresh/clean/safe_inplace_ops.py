import torch
import torch.nn as nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 6)
        self.act = nn.ReLU(inplace=True)
        self.fc2 = nn.Linear(6, 6)

    def forward(self, x):
        h = self.act(self.fc1(x))
        out = self.fc2(h)
        out += x
        return out


model = nn.Sequential(Block(), nn.Linear(6, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(3):
    x, y = torch.randn(5, 6), torch.randn(5, 1)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for p in model.parameters():
            p.clamp_(-1.0, 1.0)
