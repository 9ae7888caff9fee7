import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

num_nodes = 20
node_feat = torch.randn(num_nodes, 8)
adj = (torch.rand(num_nodes, num_nodes) < 0.2).float()
adj = ((adj + adj.t()) > 0).float() + torch.eye(num_nodes)
deg_inv_sqrt = adj.sum(1).pow(-0.5)
A_hat = deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :]


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(8, 16)
        self.lin2 = nn.Linear(16, 16)

    def forward(self, x, A):
        h = F.relu(A @ self.lin1(x))
        return A @ self.lin2(h)


encoder = GCN()
optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-2)
pos_edges = adj.nonzero()[:24]
neg_edges = torch.randint(0, num_nodes, (24, 2))

for epoch in range(2):
    for batch in torch.arange(pos_edges.size(0)).split(8):
        z = encoder(node_feat, A_hat)
        src, dst = pos_edges[batch].t()
        nsrc, ndst = neg_edges[batch].t()
        pos_score = (z[src] * z[dst]).sum(-1)
        neg_score = (z[nsrc] * z[ndst]).sum(-1)
        loss = F.binary_cross_entropy_with_logits(pos_score, torch.ones_like(pos_score)) + \
            F.binary_cross_entropy_with_logits(neg_score, torch.zeros_like(neg_score))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
