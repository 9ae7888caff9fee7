# cause: accumulated_loss_backward_in_loop
# line: 35
# why: aux_total sums the graph-attached load-balancing loss across batches and is added into each batch's loss, so the second backward reaches the first batch's freed gate graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MoE(nn.Module):
    def __init__(self, d=8, n_experts=3):
        super().__init__()
        self.gate = nn.Linear(d, n_experts)
        self.experts = nn.ModuleList([nn.Sequential(nn.Linear(d, 8), nn.ReLU(), nn.Linear(8, 1)) for _ in range(n_experts)])

    def forward(self, x):
        weights = torch.softmax(self.gate(x), dim=-1)
        outs = torch.cat([e(x) for e in self.experts], dim=-1)
        y = (outs * weights).sum(-1, keepdim=True)
        importance = weights.mean(0)
        balance = (importance * importance).sum() * weights.shape[-1]
        return y, balance


X = torch.randn(60, 8)
Y = torch.sin(X[:, :1]) + X[:, 1:2].abs()
batches = list(zip(X.split(15), Y.split(15)))
moe = MoE()
opt = torch.optim.SGD(moe.parameters(), lr=0.05, momentum=0.9)
aux_total = torch.zeros(())
for epoch in range(2):
    for xb, yb in batches:
        y, balance = moe(xb)
        aux_total = aux_total + balance
        loss = F.mse_loss(y, yb) + 0.01 * aux_total
        opt.zero_grad()
        loss.backward()
        opt.step()
