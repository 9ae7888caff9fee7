# source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/297
# style: gnn
# cause: tensor_reused_across_iterations
# line: 47
# expert: the evolved GCN weight stored on the layer (self.weight) still carries the previous epoch's graph; reset it at the start of every epoch (model.recurrent.weight = None) so each epoch evolves the weight from initial_weight again
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GCNConv_Fixed_W(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels

    def forward(self, W, x, edge_index, edge_weight=None):
        num_nodes = x.size(0)
        if edge_weight is None:
            edge_weight = torch.ones(edge_index.size(1))
        row, col = edge_index
        deg = torch.zeros(num_nodes).scatter_add(0, col, edge_weight) + 1.0
        norm = deg[row].pow(-0.5) * edge_weight * deg[col].pow(-0.5)
        x = x @ W
        out = x / deg.unsqueeze(-1)
        return out.index_add(0, col, norm.unsqueeze(-1) * x[row])


class EvolveGCNO(nn.Module):
    def __init__(self, in_channels):
        super(EvolveGCNO, self).__init__()
        self.in_channels = in_channels
        self.weight = None
        self.initial_weight = nn.Parameter(torch.Tensor(1, in_channels, in_channels))
        self.recurrent_layer = nn.LSTM(input_size=in_channels, hidden_size=in_channels, num_layers=1)
        for param in self.recurrent_layer.parameters():
            param.requires_grad = True
            param.retain_grad()
        self.conv_layer = GCNConv_Fixed_W(in_channels, in_channels)
        nn.init.xavier_uniform_(self.initial_weight)

    def forward(self, X, edge_index, edge_weight=None):
        if self.weight is None:
            _, (self.weight, _) = self.recurrent_layer(self.initial_weight, (self.initial_weight, self.initial_weight))
        else:
            _, (self.weight, _) = self.recurrent_layer(self.weight, (self.weight, self.weight))
        X = self.conv_layer(self.weight.squeeze(dim=0), X, edge_index, edge_weight)
        return X


class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features):
        super(RecurrentGCN, self).__init__()
        self.recurrent = EvolveGCNO(node_features)
        self.linear = torch.nn.Linear(node_features, 1)

    def forward(self, x, edge_index, edge_weight):
        h = self.recurrent(x, edge_index, edge_weight)
        h = F.relu(h)
        h = self.linear(h)
        return h


class Snapshot:
    def __init__(self, n=10, f=4):
        self.x = torch.randn(n, f)
        self.edge_index = torch.randint(0, n, (2, 20))
        self.edge_attr = torch.rand(20)
        self.y = torch.randn(n)


train_dataset = [Snapshot() for _ in range(4)]
model = RecurrentGCN(node_features=4)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
model.train()

for epoch in range(3):
    model.recurrent.weight = None  # start the weight evolution afresh each epoch
    cost = 0
    for time, snapshot in enumerate(train_dataset):
        y_hat = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr)
        cost = cost + torch.mean((y_hat - snapshot.y) ** 2)
    cost = cost / (time + 1)
    cost.backward()
    optimizer.step()
    optimizer.zero_grad()
    print(epoch, cost.item())
