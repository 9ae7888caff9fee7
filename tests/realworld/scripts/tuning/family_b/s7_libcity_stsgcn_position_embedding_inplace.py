# source: https://github.com/LibCity/Bigscity-LibCity/issues/303
# style: gnn
# cause: inplace_modified_saved_tensor
# line: 114
# expert: PositionEmbedding adds the temporal/spatial embeddings to `data` in place (`data += ...`), but `data` is the ReLU output of the first-layer embedding that ReLU saved for backward, so backward fails with a version mismatch; the reporter's fix, adopted in LibCity, is to pass a copy into each layer: `data = stsgcl_layer(data.clone(), self.adj)`.
import numpy as np
import torch
import torch.nn as nn
from torch.nn.init import xavier_uniform_

torch.manual_seed(0)


class PositionEmbedding(nn.Module):
    def __init__(self, input_length, num_of_vertices, embedding_size, temporal=True, spatial=True):
        super().__init__()
        self.temporal = temporal
        self.spatial = spatial
        self.temporal_emb = nn.Parameter(torch.zeros((1, input_length, 1, embedding_size)))
        xavier_uniform_(self.temporal_emb)
        self.spatial_emb = nn.Parameter(torch.zeros((1, 1, num_of_vertices, embedding_size)))
        xavier_uniform_(self.spatial_emb)

    def forward(self, data):
        if self.temporal:
            data += self.temporal_emb
        if self.spatial:
            data += self.spatial_emb
        return data


class GcnOperation(nn.Module):
    def __init__(self, num_of_filter, num_of_features):
        super().__init__()
        self.num_of_filter = num_of_filter
        self.layer = nn.Linear(num_of_features, 2 * num_of_filter)

    def forward(self, data, adj):
        data = torch.matmul(adj, data)
        data = self.layer(data)
        lhs, rhs = data.split(self.num_of_filter, -1)
        return lhs * torch.sigmoid(rhs)


class Stsgcm(nn.Module):
    def __init__(self, filters, num_of_features, num_of_vertices):
        super().__init__()
        self.num_of_vertices = num_of_vertices
        self.layers = nn.ModuleList()
        for f in filters:
            self.layers.append(GcnOperation(f, num_of_features))
            num_of_features = f

    def forward(self, data, adj):
        need_concat = []
        for layer in self.layers:
            data = layer(data, adj)
            need_concat.append(torch.transpose(data, 1, 0))
        need_concat = [torch.unsqueeze(i[self.num_of_vertices:2 * self.num_of_vertices], dim=0) for i in need_concat]
        return torch.max(torch.cat(need_concat, dim=0), dim=0)[0]


class STSGCNLayerIndividual(nn.Module):
    def __init__(self, t, num_of_vertices, num_of_features, filters):
        super().__init__()
        self.T, self.num_of_vertices, self.num_of_features = t, num_of_vertices, num_of_features
        self.position_embedding = PositionEmbedding(t, num_of_vertices, num_of_features)
        self.gcms = nn.ModuleList([Stsgcm(filters, num_of_features, num_of_vertices) for _ in range(t - 2)])

    def forward(self, data, adj):
        data = self.position_embedding(data)
        need_concat = []
        for i in range(self.T - 2):
            t = data[:, i:i + 3, :, :]
            t = torch.reshape(t, (-1, 3 * self.num_of_vertices, self.num_of_features))
            t = self.gcms[i](t, adj)
            need_concat.append(torch.unsqueeze(torch.transpose(t, 0, 1), dim=1))
        return torch.cat(need_concat, dim=1)


def construct_adj(a, steps):
    n = len(a)
    adj = np.zeros([n * steps] * 2)
    for i in range(steps):
        adj[i * n:(i + 1) * n, i * n:(i + 1) * n] = a
    for i in range(n):
        for k in range(steps - 1):
            adj[k * n + i, (k + 1) * n + i] = 1
            adj[(k + 1) * n + i, k * n + i] = 1
    for i in range(len(adj)):
        adj[i, i] = 1
    return adj


class STSGCN(nn.Module):
    def __init__(self, adj_mx, num_nodes, feature_dim=1, input_window=6, output_window=1, filters=((8, 8), (8, 8))):
        super().__init__()
        self.num_of_vertices = num_nodes
        self.adj = torch.tensor(construct_adj(adj_mx, 3), dtype=torch.float32)
        self.first_layer_embedding = nn.Linear(feature_dim, 8)
        self.num_of_features = 8
        input_length = input_window
        self.stsgcl_layers = nn.ModuleList()
        for f in filters:
            self.stsgcl_layers.append(STSGCNLayerIndividual(input_length, num_nodes, self.num_of_features, list(f)))
            input_length -= 2
            self.num_of_features = f[-1]
        self.output = nn.Linear(input_length * self.num_of_features, output_window)

    def forward(self, batch):
        data = batch["X"]
        data = torch.relu(self.first_layer_embedding(data))
        for stsgcl_layer in self.stsgcl_layers:
            data = stsgcl_layer(data, self.adj)
        data = torch.transpose(data, 1, 2).reshape(data.shape[0], self.num_of_vertices, -1)
        return self.output(data).permute(0, 2, 1).unsqueeze(-1)


num_nodes = 4
adj_mx = (np.random.RandomState(0).rand(num_nodes, num_nodes) > 0.5).astype(float)
model = STSGCN(adj_mx, num_nodes)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    batch = {"X": torch.randn(2, 6, num_nodes, 1), "y": torch.randn(2, 1, num_nodes, 1)}
    optimizer.zero_grad()
    loss = nn.functional.smooth_l1_loss(model(batch), batch["y"])
    loss.backward()
    optimizer.step()
    print(step, loss.item())
