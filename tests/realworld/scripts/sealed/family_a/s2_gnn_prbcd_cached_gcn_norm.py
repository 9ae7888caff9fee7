# source: https://github.com/sigeisler/robustness_of_gnns_at_scale/issues/4
# style: gnn
# cause: tensor_reused_across_iterations
# line: 33
# expert: switch off caching of the normalised adjacency in the GCN layers (cached=False) so the edge-weight-dependent normalisation is recomputed every attack step
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def gcn_norm(edge_index, edge_weight, num_nodes):
    row, col = edge_index
    deg = torch.zeros(num_nodes).scatter_add(0, col, edge_weight)
    deg_inv_sqrt = deg.pow(-0.5)
    deg_inv_sqrt = torch.where(torch.isinf(deg_inv_sqrt), torch.zeros_like(deg_inv_sqrt), deg_inv_sqrt)
    return deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]


class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels, cached=False):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels)
        self.cached = cached
        self._cached_norm = None

    def forward(self, x, edge_index, edge_weight):
        if self.cached and self._cached_norm is not None:
            norm = self._cached_norm
        else:
            norm = gcn_norm(edge_index, edge_weight, x.size(0))
            if self.cached:
                self._cached_norm = norm
        x = self.lin(x)
        row, col = edge_index
        out = torch.zeros_like(x).index_add(0, col, norm.unsqueeze(-1) * x[row])
        return out


class GCN(nn.Module):
    def __init__(self, n_features, n_filters, n_classes, cached=True):
        super().__init__()
        self.conv1 = GCNConv(n_features, n_filters, cached=cached)
        self.conv2 = GCNConv(n_filters, n_classes, cached=cached)

    def forward(self, attr, edge_index, edge_weight):
        h = F.relu(self.conv1(attr, edge_index, edge_weight))
        return self.conv2(h, edge_index, edge_weight)


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


n, d, c = 12, 6, 3
attr = torch.randn(n, d)
labels = torch.randint(0, c, (n,))
src = torch.randint(0, n, (30,))
dst = torch.randint(0, n, (30,))
loops = torch.arange(n)
edge_index = torch.stack([torch.cat([src, loops]), torch.cat([dst, loops])])
base_weight = torch.ones(edge_index.size(1))

attacked_model = GCN(d, 8, c, cached=True)
attacked_model.eval()
idx_attack = torch.arange(n)

perturbed_edge_weight = torch.full((edge_index.size(1),), 1e-3, requires_grad=True)
lr_factor = 0.1
for epoch in range(5):
    edge_weight = base_weight - perturbed_edge_weight
    logits = attacked_model(attr, edge_index, edge_weight)
    loss = -F.cross_entropy(logits[idx_attack], labels[idx_attack])
    gradient = grad_with_checkpoint(loss, perturbed_edge_weight)[0]
    with torch.no_grad():
        perturbed_edge_weight.add_(lr_factor * gradient)
        perturbed_edge_weight.clamp_(0, 1)
    print(epoch, float(loss))
