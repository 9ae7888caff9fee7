# source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/57
# style: gnn
# cause: inplace_modified_saved_tensor
# line: 104
# expert: STConv.forward runs the Chebyshev graph convolution on the slice T[b][t] and writes the result back into the same tensor (T[b][t] = self._graph_conv(T[b][t], ...)); the graph convolution saved that slice (a view of T) for its backward, so the next in-place write bumps T's version and backward fails with "output 0 of SelectBackward ... modified by an inplace operation". The maintainer's fix (commit 12ded4d "Resolve", right after the issue) keeps the temporal-conv output in T_0 and writes the graph-conv results into a fresh T = torch.zeros_like(T_0).
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


# ---- stand-in for torch_geometric.nn.ChebConv (dense Laplacian, same computation) ----
class ChebConv(nn.Module):
    def __init__(self, in_channels, out_channels, K, normalization='sym', bias=True):
        super().__init__()
        assert normalization == 'sym'
        self.lins = nn.ModuleList([nn.Linear(in_channels, out_channels, bias=False) for _ in range(K)])
        self.bias = nn.Parameter(torch.zeros(out_channels)) if bias else None

    def __norm__(self, edge_index, num_nodes, edge_weight):
        if edge_weight is None:
            edge_weight = torch.ones(edge_index.size(1))
        adj = torch.zeros(num_nodes, num_nodes)
        adj[edge_index[0], edge_index[1]] = edge_weight
        deg = adj.sum(1)
        dinv = deg.pow(-0.5)
        dinv[torch.isinf(dinv)] = 0
        # scaled Laplacian with lambda_max = 2: L_hat = L - I = -D^-1/2 A D^-1/2
        return -dinv[:, None] * adj * dinv[None, :]

    def forward(self, x, edge_index, edge_weight=None):
        lap = self.__norm__(edge_index, x.size(0), edge_weight)
        Tx_0 = x
        out = self.lins[0](Tx_0)
        if len(self.lins) > 1:
            Tx_1 = lap @ x
            out = out + self.lins[1](Tx_1)
        for lin in self.lins[2:]:
            Tx_2 = 2. * (lap @ Tx_1) - Tx_0
            out = out + lin(Tx_2)
            Tx_0, Tx_1 = Tx_1, Tx_2
        if self.bias is not None:
            out = out + self.bias
        return out


# ---- torch_geometric_temporal/nn/convolutional/stgcn.py (0.2x, before the fix) ----
class TemporalConv(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int=3):
        super(TemporalConv, self).__init__()
        self.conv_1 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))
        self.conv_2 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))
        self.conv_3 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))

    def forward(self, X: torch.FloatTensor) -> torch.FloatTensor:
        X = X.permute(0, 3, 2, 1)
        P = self.conv_1(X)
        Q = torch.sigmoid(self.conv_2(X))
        PQ = P + Q
        H = F.relu(PQ + self.conv_3(X))
        H = H.permute(0, 3, 2, 1)
        return H


class STConv(nn.Module):
    def __init__(self, num_nodes: int, in_channels: int, hidden_channels: int,
                out_channels: int, kernel_size: int, K: int,
                normalization: str="sym", bias: bool=True):
        super(STConv, self).__init__()
        self.num_nodes = num_nodes
        self.in_channels = in_channels
        self.hidden_channels = hidden_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.K = K
        self.normalization = normalization
        self.bias = bias

        self._temporal_conv1 = TemporalConv(in_channels=in_channels,
                                            out_channels=hidden_channels,
                                            kernel_size=kernel_size)

        self._graph_conv = ChebConv(in_channels=hidden_channels,
                                   out_channels=hidden_channels,
                                   K=K,
                                   normalization=normalization,
                                   bias=bias)

        self._temporal_conv2 = TemporalConv(in_channels=hidden_channels,
                                            out_channels=out_channels,
                                            kernel_size=kernel_size)

        self._batch_norm = nn.BatchNorm2d(num_nodes)

    def forward(self, X: torch.FloatTensor, edge_index: torch.LongTensor,
                edge_weight: torch.FloatTensor=None) -> torch.FloatTensor:
        T_0 = self._temporal_conv1(X)
        T = torch.zeros_like(T_0).to(T_0.device)
        for b in range(T_0.size(0)):
            for t in range(T_0.size(1)):
                T[b][t] = self._graph_conv(T_0[b][t], edge_index, edge_weight)

        T = F.relu(T)
        T = self._temporal_conv2(T)
        T = T.permute(0, 2, 1, 3)
        T = self._batch_norm(T)
        T = T.permute(0, 2, 1, 3)
        return T


# ---- the reporter's model (models/STGCN.py: two stacked STConv blocks, h2 = self.recurrent2(h1, ...)) ----
class STGCN(nn.Module):
    def __init__(self, num_nodes, node_features, periods):
        super().__init__()
        self.recurrent1 = STConv(num_nodes, node_features, 64, 32, kernel_size=3, K=2)
        self.recurrent2 = STConv(num_nodes, 32, 64, 32, kernel_size=3, K=2)
        self.linear = nn.Linear(32, 1)

    def forward(self, x, edge_indices, edge_weights):
        h1 = self.recurrent1(x, edge_indices, edge_weights)
        h2 = self.recurrent2(h1, edge_indices, edge_weights)
        h = self.linear(F.relu(h2))
        return h[:, -1, :, 0]


# a small traffic-like graph (ring + chords) with random speed readings instead of METR-LA
num_nodes, node_features, periods = 20, 2, 12
src = torch.arange(num_nodes)
edge_index = torch.cat([torch.stack([src, (src + 1) % num_nodes]), torch.stack([(src + 1) % num_nodes, src]),
                        torch.stack([src, (src + 5) % num_nodes]), torch.stack([(src + 5) % num_nodes, src])], dim=1)
edge_weight = torch.rand(edge_index.size(1)) + 0.5

model = STGCN(num_nodes, node_features, periods)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
model.train()
for epoch in range(2):
    x = torch.randn(4, periods, num_nodes, node_features)
    y = torch.randn(4, num_nodes)
    y_hat = model(x, edge_index, edge_weight)
    loss = torch.mean((y_hat - y) ** 2)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print("Epoch {} train MSE: {:.4f}".format(epoch, loss.item()))
