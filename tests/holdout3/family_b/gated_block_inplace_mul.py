# cause: inplace_modified_saved_tensor
# line: 21
# why: gate *= h modifies the sigmoid output in place, but SigmoidBackward saved that output for the backward pass.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GatedBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.gate = nn.Linear(d, d)
        self.proj = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        gate = torch.sigmoid(self.gate(x))
        h = F.gelu(self.proj(x))
        gate *= h
        return self.norm(x + gate)


model = nn.Sequential(GatedBlock(16), GatedBlock(16), nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    x = torch.randn(8, 16)
    y = torch.randint(0, 2, (8,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
