# cause: computed_before_loop
# line: 39
# why: The normalised adjacency is built once before the training loop from the learnable edge_logits, and every epoch's backward goes through that single, already-freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N, F_in, C = 12, 6, 3
A = (torch.rand(N, N) < 0.3).float()
A = ((A + A.t()) > 0).float()
X = torch.randn(N, F_in)
labels = torch.randint(0, C, (N,))
train_mask = torch.arange(N) < 8


def normalize_adj(adj):
    deg = adj.sum(1)
    d_inv_sqrt = deg.pow(-0.5)
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(F_in, 16)
        self.l2 = nn.Linear(16, C)

    def forward(self, a_hat, x):
        h = F.relu(a_hat @ self.l1(x))
        return a_hat @ self.l2(h)


gcn = GCN()
edge_logits = nn.Parameter(torch.zeros(N, N))
opt = torch.optim.Adam(list(gcn.parameters()) + [edge_logits], lr=1e-2)

A_hat = normalize_adj(A * torch.sigmoid(edge_logits) + torch.eye(N))
for epoch in range(10):
    out = gcn(A_hat, X)
    loss = F.cross_entropy(out[train_mask], labels[train_mask])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 3 == 0:
        print(epoch, loss.item())
