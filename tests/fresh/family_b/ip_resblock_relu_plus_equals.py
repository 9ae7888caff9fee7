# cause: inplace_modified_saved_tensor
# line: 18
# why: out += x adds the residual in place to the ReLU output, which ReluBackward saved for the gradient.
import torch
import torch.nn as nn

torch.manual_seed(0)


class ResBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = nn.Linear(d, d)
        self.fc2 = nn.Linear(d, d)

    def forward(self, x):
        out = torch.relu(self.fc1(x))
        out += x
        return self.fc2(out)


net = nn.Sequential(ResBlock(5), ResBlock(5), nn.Linear(5, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for step in range(3):
    x, y = torch.randn(6, 5), torch.randn(6, 1)
    loss = nn.functional.mse_loss(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
