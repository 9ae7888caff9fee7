# source: https://github.com/sigeisler/robustness_of_gnns_at_scale/issues/4
# style: gnn
# cause: tensor_reused_across_iterations
# line: 47
# expert: switch off the caching of the preprocessed adjacency (do_cache_adj_prep=False) when the attacked model runs in train() mode; the cached normalisation depends on the perturbed edge weights of the first attack step and its graph is freed after that step's backward
from typing import Any, Callable

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ChainableGCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels)

    def forward(self, arguments):
        x, edge_idx, edge_weight = arguments
        h = self.lin(x)
        out = torch.zeros_like(h).index_add(0, edge_idx[1], edge_weight.unsqueeze(1) * h[edge_idx[0]])
        return out


class GCN(nn.Module):
    def __init__(self, n_features, n_classes, n_filters=16, dropout=0.5, do_cache_adj_prep=True):
        super().__init__()
        self.do_cache_adj_prep = do_cache_adj_prep
        self.adj_preped = None
        self.layers = nn.ModuleList([ChainableGCNConv(n_features, n_filters), ChainableGCNConv(n_filters, n_classes)])
        self.dropout = dropout

    def forward(self, data, adj):
        x, edge_idx, edge_weight = data, adj[0], adj[1]
        edge_idx, edge_weight = self._cache_if_option_is_set(self._convert_and_normalize, x, edge_idx, edge_weight)
        x = F.dropout(F.relu(self.layers[0]((x, edge_idx, edge_weight))), self.dropout, self.training)
        return self.layers[1]((x, edge_idx, edge_weight))

    def _cache_if_option_is_set(self, callable: Callable[[Any], Any], *inputs) -> Any:
        if self.training and self.adj_preped is not None:
            return self.adj_preped
        else:
            adj_preped = callable(*inputs)
        if self.training and self.do_cache_adj_prep:
            self.adj_preped = adj_preped
        return adj_preped

    def _convert_and_normalize(self, x, edge_idx, edge_weight):
        num_nodes = x.shape[0]
        loops = torch.arange(num_nodes)
        edge_idx = torch.cat([edge_idx, torch.stack([loops, loops])], dim=1)
        edge_weight = torch.cat([edge_weight, torch.ones(num_nodes)])
        row, col = edge_idx
        deg = torch.zeros(num_nodes).index_add(0, col, edge_weight)
        deg_inv_sqrt = deg.pow(-0.5)
        deg_inv_sqrt = deg_inv_sqrt.masked_fill(deg_inv_sqrt == float('inf'), 0)
        return edge_idx, deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]


def grad_with_checkpoint(outputs, inputs):
    inputs = (inputs,) if isinstance(inputs, torch.Tensor) else tuple(inputs)
    for input in inputs:
        if not input.is_leaf:
            input.retain_grad()
    torch.autograd.backward(outputs)
    grad_outputs = []
    for input in inputs:
        grad_outputs.append(input.grad.clone())
        input.grad.zero_()
    return grad_outputs


class PRBCD:
    def __init__(self, attacked_model, attr, edge_index, labels, idx_attack, epochs=4, lr=0.1):
        self.attacked_model = attacked_model
        self.attr, self.edge_index, self.labels, self.idx_attack = attr, edge_index, labels, idx_attack
        self.epochs, self.lr = epochs, lr

    def attack(self, n_perturbations):
        self.attacked_model.train()
        n = self.attr.shape[0]
        self.current_search_space = torch.randint(n * n, (32,))
        self.perturbed_edge_weight = torch.full((32,), 1e-3, requires_grad=True)
        for epoch in range(self.epochs):
            modified_edge_index, modified_edge_weight = self.get_modified_adj()
            logits = self.attacked_model(data=self.attr, adj=(modified_edge_index, modified_edge_weight))
            loss = -F.cross_entropy(logits[self.idx_attack], self.labels[self.idx_attack])
            gradient = grad_with_checkpoint(loss, self.perturbed_edge_weight)[0]
            with torch.no_grad():
                self.perturbed_edge_weight.add_(self.lr * gradient).clamp_(0, 1)
            print(f'epoch {epoch}: loss {loss.item():.4f}')

    def get_modified_adj(self):
        n = self.attr.shape[0]
        rows, cols = self.current_search_space // n, self.current_search_space % n
        modified_edge_index = torch.cat([self.edge_index, torch.stack([rows, cols])], dim=1)
        modified_edge_weight = torch.cat([torch.ones(self.edge_index.shape[1]), self.perturbed_edge_weight])
        return modified_edge_index, modified_edge_weight


n_nodes = 20
attr = torch.randn(n_nodes, 8)
edge_index = torch.randint(0, n_nodes, (2, 40))
labels = torch.randint(0, 3, (n_nodes,))
model = GCN(n_features=8, n_classes=3)
attack = PRBCD(model, attr, edge_index, labels, idx_attack=torch.arange(10))
attack.attack(n_perturbations=5)
