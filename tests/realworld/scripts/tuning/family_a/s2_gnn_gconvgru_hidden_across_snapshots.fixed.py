# source: variant of https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/145
# style: gnn
# cause: recurrent_state_not_detached
# line: 77
# expert: when the hidden state H is carried from snapshot to snapshot and backward runs every snapshot, detach it after each update (h = h.detach()) so the next snapshot does not backpropagate into the freed graph
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GraphConv(nn.Module):
    """First-order Chebyshev graph convolution (K=1 plus neighbour term) in plain torch."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin_self = nn.Linear(in_channels, out_channels)
        self.lin_neigh = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index, edge_weight):
        row, col = edge_index
        agg = torch.zeros(x.size(0), x.size(1)).index_add(0, col, edge_weight.unsqueeze(-1) * x[row])
        return self.lin_self(x) + self.lin_neigh(agg)


class GConvGRU(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.out_channels = out_channels
        self.conv_x_z, self.conv_h_z = GraphConv(in_channels, out_channels), GraphConv(out_channels, out_channels)
        self.conv_x_r, self.conv_h_r = GraphConv(in_channels, out_channels), GraphConv(out_channels, out_channels)
        self.conv_x_h, self.conv_h_h = GraphConv(in_channels, out_channels), GraphConv(out_channels, out_channels)

    def _set_hidden_state(self, X, H):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels)
        return H

    def forward(self, X, edge_index, edge_weight=None, H=None):
        H = self._set_hidden_state(X, H)
        Z = torch.sigmoid(self.conv_x_z(X, edge_index, edge_weight) + self.conv_h_z(H, edge_index, edge_weight))
        R = torch.sigmoid(self.conv_x_r(X, edge_index, edge_weight) + self.conv_h_r(H, edge_index, edge_weight))
        H_tilde = torch.tanh(self.conv_x_h(X, edge_index, edge_weight) + self.conv_h_h(H * R, edge_index, edge_weight))
        return Z * H + (1 - Z) * H_tilde


class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features):
        super(RecurrentGCN, self).__init__()
        self.recurrent = GConvGRU(node_features, 8)
        self.linear = torch.nn.Linear(8, 1)

    def forward(self, x, edge_index, edge_weight, h):
        h = self.recurrent(x, edge_index, edge_weight, h)
        y = F.relu(h)
        y = self.linear(y)
        return y, h


class Snapshot:
    def __init__(self, n=10, f=4):
        self.x = torch.randn(n, f)
        self.edge_index = torch.randint(0, n, (2, 20))
        self.edge_attr = torch.rand(20)
        self.y = torch.randn(n, 1)


train_dataset = [Snapshot() for _ in range(4)]
model = RecurrentGCN(node_features=4)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
model.train()

h = None  # cell state kept between the epoch and the sequence iteration loop
for epoch in range(2):
    for time, snapshot in enumerate(train_dataset):
        y_hat, h = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr, h)
        cost = torch.mean((y_hat - snapshot.y) ** 2)
        cost.backward()
        optimizer.step()
        optimizer.zero_grad()
        h = h.detach()
    print(epoch, cost.item())
