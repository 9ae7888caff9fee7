import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GCN(nn.Module):
    def __init__(self, n, d_in, d_out):
        super().__init__()
        self.edge_logits = nn.Parameter(torch.zeros(n, n))
        self.lin = nn.Linear(d_in, d_out)

    def adjacency(self):
        a = torch.sigmoid(self.edge_logits)
        return a / a.sum(1, keepdim=True)

    def forward(self, x, adj):
        return adj @ self.lin(x)


model = GCN(6, 4, 2)
feats = torch.randn(6, 4)
labels = torch.randint(0, 2, (6,))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(4):
    adj = model.adjacency()
    out = model(feats, adj)
    loss = F.cross_entropy(out, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
