# cause: shared_subgraph_multiple_backward
# line: 29
# why: Each expert's gated loss gets its own backward, but all of them share the trunk/gate graph, which the first expert's backward already freed.
import torch
import torch.nn as nn

torch.manual_seed(0)


class MixtureOfExperts(nn.Module):
    def __init__(self, d_in=6, d_hid=16, n_experts=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, d_hid), nn.ReLU())
        self.gate = nn.Linear(d_hid, n_experts)
        self.experts = nn.ModuleList([nn.Linear(d_hid, 1) for _ in range(n_experts)])


moe = MixtureOfExperts()
opt = torch.optim.Adam(moe.parameters(), lr=1e-2)
X = torch.randn(48, 6)
Y = X[:, :1] * X[:, 1:2] + torch.relu(X[:, 2:3])
for step in range(4):
    h = moe.trunk(X)
    gate_w = torch.softmax(moe.gate(h), dim=-1)
    opt.zero_grad()
    for e, expert in enumerate(moe.experts):
        pred = expert(h)
        loss_e = (gate_w[:, e:e + 1] * (pred - Y).pow(2)).mean()
        loss_e.backward()
    opt.step()
