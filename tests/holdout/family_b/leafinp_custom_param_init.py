# cause: leaf_inplace
# line: 23
# why: reset_parameters calls self.weight.uniform_() on an nn.Parameter (a leaf requiring grad) outside torch.no_grad().
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ScaledLinear(nn.Module):
    def __init__(self, in_f, out_f, scale=0.5):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_f, in_f))
        self.bias = nn.Parameter(torch.empty(out_f))
        self.scale = scale
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.weight.size(1))
        self.weight.uniform_(-bound, bound)
        self.bias.zero_()

    def forward(self, x):
        return self.scale * F.linear(x, self.weight, self.bias)


model = nn.Sequential(ScaledLinear(6, 12), nn.ReLU(), ScaledLinear(12, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(3):
    x, y = torch.randn(8, 6), torch.randn(8, 1)
    loss = F.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
