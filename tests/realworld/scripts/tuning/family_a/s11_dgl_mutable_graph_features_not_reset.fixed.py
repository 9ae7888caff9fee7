# source: variant of https://github.com/dmlc/dgl/issues/33 (the GCN / update_all pseudo-code made runnable: a minimal mutable DGLGraph stand-in holding the node representations, random features instead of Cora)
# style: gnn
# cause: tensor_reused_across_iterations
# line: 69
# expert: The GCN writes its output node representations back into the mutable graph g, so from the second epoch on the input "features" read from g are the previous epoch's graph-attached outputs, whose graph was freed by the last backward. The fix given in the issue is to reset the input features on the graph at the beginning of every iteration (g.set_n_repr(features) inside the loop).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DGLGraph:
    """Tiny stand-in for the early mutable DGLGraph: node representations live on the graph."""

    def __init__(self, nx_graph):
        self.adj = nx_graph  # dense adjacency (num_nodes x num_nodes)
        self._node_repr = None

    def set_n_repr(self, h):
        self._node_repr = h

    def get_n_repr(self):
        return self._node_repr

    def update_all(self, message_func, reduce_func, update_func, batchable=True):
        assert message_func == 'from_src' and reduce_func == 'sum'
        accum = self.adj @ self._node_repr          # sum of messages from source nodes
        self._node_repr = update_func(self._node_repr, accum)  # mutates the graph in place


# Node update module
class NodeModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(in_features=10, out_features=10)

    def forward(self, node, accum):
        return F.relu(self.linear(accum))


# GCN module
class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.updmod = NodeModule()

    def forward(self, g):
        g.update_all(message_func='from_src',
                     reduce_func='sum',
                     update_func=self.updmod,
                     batchable=True)
        return g


def load_data(name):
    num_nodes = 12
    nx_graph = (torch.rand(num_nodes, num_nodes) < 0.3).float()
    features = torch.randn(num_nodes, 10)
    labels = torch.randint(0, 10, (num_nodes,))
    return nx_graph, features, labels


MAX_EPOCH = 3
nx_graph, features, labels = load_data('cora')
gcn = GCN()
optimizer = torch.optim.Adam(gcn.parameters(), lr=1e-2)
g = DGLGraph(nx_graph)
for epoch in range(MAX_EPOCH):
    g.set_n_repr(features)  # Need to reset the features every iter!!
    gg = gcn(g)
    logits = gg.get_n_repr()
    loss = F.nll_loss(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
