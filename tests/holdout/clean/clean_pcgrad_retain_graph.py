import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TwoTaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        self.head_a = nn.Linear(16, 1)
        self.head_b = nn.Linear(16, 1)

    def forward(self, x):
        h = self.shared(x)
        return self.head_a(h), self.head_b(h)


model = TwoTaskNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
params = list(model.parameters())

for step in range(3):
    x = torch.randn(10, 8)
    ya, yb = torch.randn(10, 1), torch.randn(10, 1)
    pa, pb = model(x)
    loss_a = F.mse_loss(pa, ya)
    loss_b = F.mse_loss(pb, yb)
    # per-task gradients from the same forward pass: the first grad call must keep the graph
    ga = torch.autograd.grad(loss_a, params, retain_graph=True, allow_unused=True)
    gb = torch.autograd.grad(loss_b, params, allow_unused=True)
    flat_a = torch.cat([g.flatten() if g is not None else torch.zeros(p.numel()) for g, p in zip(ga, params)])
    flat_b = torch.cat([g.flatten() if g is not None else torch.zeros(p.numel()) for g, p in zip(gb, params)])
    dot = torch.dot(flat_a, flat_b)
    if dot < 0:
        flat_a = flat_a - dot / flat_b.pow(2).sum() * flat_b
    combined = flat_a + flat_b
    optimizer.zero_grad()
    offset = 0
    for p in params:
        p.grad = combined[offset:offset + p.numel()].view_as(p).clone()
        offset += p.numel()
    optimizer.step()
