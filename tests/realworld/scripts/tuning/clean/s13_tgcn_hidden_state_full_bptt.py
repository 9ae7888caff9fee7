# source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/pull/209
# style: gnn
# expert: The corrected TGCN example passes the previous hidden state to every snapshot without detaching it, which looks like a stale-graph bug, but the hidden state is reset to None at the start of every epoch and the cost is accumulated over all snapshots with a single backward per epoch (full backpropagation through time over the sequence); no graph is ever backpropagated twice.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GCNConv(nn.Module):
    """Minimal dense stand-in for torch_geometric's GCNConv (symmetric normalisation, self-loops)."""
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels)

    def forward(self, x, edge_index, edge_weight=None):
        n = x.size(0)
        adj = torch.zeros(n, n)
        w = edge_weight if edge_weight is not None else torch.ones(edge_index.size(1))
        adj[edge_index[1], edge_index[0]] = w
        adj = adj + torch.eye(n)
        deg_inv_sqrt = adj.sum(1).pow(-0.5)
        adj = deg_inv_sqrt.view(-1, 1) * adj * deg_inv_sqrt.view(1, -1)
        return adj @ self.lin(x)


class TGCN(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.out_channels = out_channels
        self.conv_z = GCNConv(in_channels, out_channels)
        self.linear_z = nn.Linear(2 * out_channels, out_channels)
        self.conv_r = GCNConv(in_channels, out_channels)
        self.linear_r = nn.Linear(2 * out_channels, out_channels)
        self.conv_h = GCNConv(in_channels, out_channels)
        self.linear_h = nn.Linear(2 * out_channels, out_channels)

    def _set_hidden_state(self, X, H):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels)
        return H

    def forward(self, X, edge_index, edge_weight=None, H=None):
        H = self._set_hidden_state(X, H)
        Z = torch.sigmoid(self.linear_z(torch.cat([self.conv_z(X, edge_index, edge_weight), H], dim=1)))
        R = torch.sigmoid(self.linear_r(torch.cat([self.conv_r(X, edge_index, edge_weight), H], dim=1)))
        H_tilde = torch.tanh(self.linear_h(torch.cat([self.conv_h(X, edge_index, edge_weight), H * R], dim=1)))
        return Z * H + (1 - Z) * H_tilde


class RecurrentGCN(nn.Module):
    def __init__(self, node_features):
        super(RecurrentGCN, self).__init__()
        self.recurrent = TGCN(node_features, 16)
        self.linear = nn.Linear(16, 1)

    def forward(self, x, edge_index, edge_weight, prev_hidden_state):
        h = self.recurrent(x, edge_index, edge_weight, prev_hidden_state)
        y = F.relu(h)
        y = self.linear(y)
        return y, h


class Snapshot:
    def __init__(self, x, edge_index, edge_attr, y):
        self.x, self.edge_index, self.edge_attr, self.y = x, edge_index, edge_attr, y


# stand-in for ChickenpoxDatasetLoader().get_dataset(lags=4): 10 nodes, 8 snapshots
edge_index = torch.randint(0, 10, (2, 30))
edge_attr = torch.rand(30)
dataset = [Snapshot(torch.randn(10, 4), edge_index, edge_attr, torch.randn(10, 1)) for _ in range(8)]
train_dataset, test_dataset = dataset[:6], dataset[6:]

model = RecurrentGCN(node_features=4)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

model.train()
for epoch in range(5):
    cost = 0
    hidden_state = None
    for time, snapshot in enumerate(train_dataset):
        y_hat, hidden_state = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr, hidden_state)
        cost = cost + torch.mean((y_hat - snapshot.y) ** 2)
    cost = cost / (time + 1)
    cost.backward()
    optimizer.step()
    optimizer.zero_grad()
    print(f"epoch {epoch}: MSE {cost.item():.4f}")

model.eval()
cost = 0
with torch.no_grad():
    for time, snapshot in enumerate(test_dataset):
        y_hat, hidden_state = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr, hidden_state)
        cost = cost + torch.mean((y_hat - snapshot.y) ** 2)
cost = cost / (time + 1)
print("MSE: {:.4f}".format(cost.item()))
