"""Stand-in for torch_geometric_temporal.nn.recurrent.evolvegcno (EvolveGCNO), with a dense
GCN propagation instead of torch_geometric's MessagePassing so that it runs without PyG."""
import math

import torch
from torch.nn import GRU


def glorot(tensor):
    stdv = math.sqrt(6.0 / (tensor.size(-2) + tensor.size(-1)))
    with torch.no_grad():
        tensor.uniform_(-stdv, stdv)


class GCNConv_Fixed_W(torch.nn.Module):
    """GCN propagation with a weight matrix given at call time (the evolved weight)."""
    def __init__(self, in_channels, out_channels, improved=False, cached=False,
                 add_self_loops=True, normalize=True):
        super(GCNConv_Fixed_W, self).__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.improved = improved
        self.add_self_loops = add_self_loops
        self.normalize = normalize

    def forward(self, W, x, edge_index, edge_weight=None):
        n = x.size(0)
        if edge_weight is None:
            edge_weight = torch.ones(edge_index.size(1))
        adj = torch.zeros(n, n)
        adj[edge_index[1], edge_index[0]] = edge_weight
        if self.add_self_loops:
            adj = adj + (2.0 if self.improved else 1.0) * torch.eye(n)
        if self.normalize:
            deg_inv_sqrt = adj.sum(1).clamp(min=1e-12).pow(-0.5)
            adj = deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :]
        x = torch.matmul(x, W)
        return adj @ x


class EvolveGCNO(torch.nn.Module):
    r"""An implementation of the Evolving Graph Convolutional without Hidden Layer.
    For details see this paper: `"EvolveGCN: Evolving Graph Convolutional
    Networks for Dynamic Graph." <https://arxiv.org/abs/1902.10191>`_
    """
    def __init__(self, in_channels, improved=False, cached=False, normalize=True, add_self_loops=True):
        super(EvolveGCNO, self).__init__()
        self.in_channels = in_channels
        self.improved = improved
        self.cached = cached
        self.normalize = normalize
        self.add_self_loops = add_self_loops
        self.initial_weight = torch.nn.Parameter(torch.Tensor(1, in_channels, in_channels))
        self.weight = None
        self._create_layers()
        self.reset_parameters()

    def reset_parameters(self):
        glorot(self.initial_weight)

    def reinitialize_weight(self):
        self.weight = None

    def _create_layers(self):
        self.recurrent_layer = GRU(input_size=self.in_channels, hidden_size=self.in_channels, num_layers=1)
        self.conv_layer = GCNConv_Fixed_W(in_channels=self.in_channels, out_channels=self.in_channels,
                                          improved=self.improved, cached=self.cached,
                                          normalize=self.normalize, add_self_loops=self.add_self_loops)

    def forward(self, X, edge_index, edge_weight=None):
        if self.weight is None:
            _, self.weight = self.recurrent_layer(self.initial_weight, self.initial_weight)
        else:
            _, self.weight = self.recurrent_layer(self.weight, self.weight)
        X = self.conv_layer(self.weight.squeeze(dim=0), X, edge_index, edge_weight)
        return X
