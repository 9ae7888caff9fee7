# cause: inplace_modified_saved_tensor
# line: 23
# why: h += r modifies the tanh output in place, but TanhBackward saved that output for the gradient.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResidualMLP(nn.Module):
    def __init__(self, d=16, depth=2):
        super().__init__()
        self.inp = nn.Linear(8, d)
        self.blocks = nn.ModuleList([nn.Linear(d, d) for _ in range(depth)])
        self.out = nn.Linear(d, 1)

    def forward(self, x):
        h = torch.tanh(self.inp(x))
        for blk in self.blocks:
            r = h
            h = torch.tanh(blk(h))
            h += r
        return self.out(h)


model = ResidualMLP()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    x, y = torch.randn(16, 8), torch.randn(16, 1)
    loss = F.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
