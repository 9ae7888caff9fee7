# source: https://github.com/QueuQ/CGLB/issues/16 (GraphConv of GCGL/Backbones/graphconv.py, GCNLayer/GCN of gcn.py and NET.observe_clsIL of GCGL/Baselines/twp_model.py at 793a346; DGL's graph, apply_edges, edge_softmax and update_all written as a tiny pure-PyTorch Graph, a mean/max readout instead of WeightedSumAndMax, random molecule-sized graphs instead of the GCGL datasets, CPU instead of cuda)
# style: gnn
# cause: no_grad_fn
# line: 65
# expert: TWP backpropagates the norm of the first layer's edge attention (eloss = torch.norm(elist[0])) to get its attention Fisher. When in_feats <= out_feats, GraphConv takes the "aggregate first, then multiply W" branch, so the first layer's attention e_soft is computed from the raw input features only and has no grad_fn, and eloss.backward() fails. The maintainers' fix (commit 1381e84) makes the layer always take the "multiply W first" branch (if self._in_feats > self._out_feats or self._in_feats <= self._out_feats), so the attention is computed from feat @ W.
import torch
import torch as th
import torch.nn.functional as F
from torch import nn
from torch.nn import init
from torch.optim import Adam

torch.manual_seed(0)


class Graph:
    """Batched graph: edge list (src -> dst) plus node data, standing in for a DGLGraph."""

    def __init__(self, src, dst, num_nodes, graph_ids, feats):
        self.src, self.dst, self.num_nodes = src, dst, num_nodes
        self.graph_ids = graph_ids
        self.ndata = {'h': feats}

    def in_degrees(self):
        return th.bincount(self.dst, minlength=self.num_nodes)


def edge_softmax(graph, e):
    e = e - e.max()
    num = th.exp(e)
    den = th.zeros(graph.num_nodes).index_add(0, graph.dst, num)
    return num / den[graph.dst]


def update_all_copy_src_sum(graph, h):
    return th.zeros(graph.num_nodes, h.shape[1]).index_add(0, graph.dst, h[graph.src])


class GraphConv(nn.Module):
    def __init__(self, in_feats, out_feats, norm='both', weight=True, bias=True, activation=None):
        super(GraphConv, self).__init__()
        self._in_feats = in_feats
        self._out_feats = out_feats
        self._norm = norm
        self.weight = nn.Parameter(th.Tensor(in_feats, out_feats)) if weight else None
        self.bias = nn.Parameter(th.Tensor(out_feats)) if bias else None
        self.reset_parameters()
        self._activation = activation
        self.leaky_relu = nn.LeakyReLU(0.2)

    def reset_parameters(self):
        if self.weight is not None:
            init.xavier_uniform_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, graph, feat, weight=None):
        if weight is None:
            weight = self.weight

        def edge_scores(h):
            # graph.apply_edges(lambda edges: {'e': th.sum((th.mul(edges.src['h'], th.tanh(edges.dst['h']))),1)})
            return th.sum(th.mul(h[graph.src], th.tanh(h[graph.dst])), 1)

        if self._in_feats > self._out_feats:
            # mult W first to reduce the feature size for aggregation.
            if weight is not None:
                feat = th.matmul(feat, weight)
            e = self.leaky_relu(edge_scores(feat))
            e_soft = edge_softmax(graph, e)
            rst = update_all_copy_src_sum(graph, feat)
        else:
            # aggregate first then mult W
            e = self.leaky_relu(edge_scores(feat))
            e_soft = edge_softmax(graph, e)
            rst = update_all_copy_src_sum(graph, feat)
            if weight is not None:
                rst = th.matmul(rst, weight)

        if self._norm != 'none':
            degs = graph.in_degrees().float().clamp(min=1)
            rst = rst / degs.unsqueeze(-1)
        if self.bias is not None:
            rst = rst + self.bias
        if self._activation is not None:
            rst = self._activation(rst)
        return rst, e_soft


class GCNLayer(nn.Module):
    def __init__(self, in_feats, out_feats, activation=None, residual=True, batchnorm=True, dropout=0.):
        super(GCNLayer, self).__init__()
        self.activation = activation
        self.graph_conv = GraphConv(in_feats=in_feats, out_feats=out_feats, norm='none', activation=activation)
        self.dropout = nn.Dropout(dropout)
        self.residual = residual
        if residual:
            self.res_connection = nn.Linear(in_feats, out_feats)
        self.bn = batchnorm
        if batchnorm:
            self.bn_layer = nn.BatchNorm1d(out_feats)

    def forward(self, g, feats):
        new_feats, att = self.graph_conv(g, feats)
        if self.residual:
            res_feats = self.activation(self.res_connection(feats))
            new_feats = new_feats + res_feats
        new_feats = self.dropout(new_feats)
        if self.bn:
            new_feats = self.bn_layer(new_feats)
        return new_feats, att


class GCN(nn.Module):
    def __init__(self, in_feats, hidden_feats):
        super(GCN, self).__init__()
        self.hidden_feats = hidden_feats
        self.gnn_layers = nn.ModuleList()
        for out_feats in hidden_feats:
            self.gnn_layers.append(GCNLayer(in_feats, out_feats, activation=F.relu))
            in_feats = out_feats

    def forward(self, g, feats):
        att = []
        for gnn in self.gnn_layers:
            feats, e = gnn(g, feats)
            att.append(e)
        return feats, att


class GCNPredictor(nn.Module):
    def __init__(self, in_feats, hidden_feats, n_tasks):
        super(GCNPredictor, self).__init__()
        self.gnn = GCN(in_feats=in_feats, hidden_feats=hidden_feats)
        self.predict = nn.Linear(2 * hidden_feats[-1], n_tasks)

    def forward(self, bg, feats):
        node_feats, att = self.gnn(bg, feats)
        n_graphs = int(bg.graph_ids.max()) + 1
        mean = th.zeros(n_graphs, node_feats.shape[1]).index_add(0, bg.graph_ids, node_feats)
        mean = mean / th.bincount(bg.graph_ids).unsqueeze(-1)
        mx = th.stack([node_feats[bg.graph_ids == i].max(0).values for i in range(n_graphs)])
        return self.predict(th.cat([mean, mx], 1)), att


def predict(args, model, bg):
    node_feats = bg.ndata.pop(args['node_data_field'])
    return model(bg, node_feats)


class GraphLoader:
    """Re-collates small random graphs on every pass, like a DGL GraphDataLoader."""

    def __init__(self, classes, n_batches=2, batch_size=4, in_feats=8):
        g = torch.Generator().manual_seed(len(classes) * 7 + classes[0])
        self.batches = []
        for _ in range(n_batches):
            sizes = th.randint(4, 7, (batch_size,), generator=g).tolist()
            src, dst, gid, offset = [], [], [], 0
            for i, n in enumerate(sizes):
                for u in range(n):
                    for v in (u - 1, u + 1, u):
                        if 0 <= v < n:
                            src.append(offset + u)
                            dst.append(offset + v)
                gid += [i] * n
                offset += n
            feats = th.randn(offset, in_feats, generator=g)
            labels = th.tensor(classes)[th.randint(0, len(classes), (batch_size,), generator=g)]
            self.batches.append((th.tensor(src), th.tensor(dst), offset, th.tensor(gid), feats, labels))

    def __iter__(self):
        for src, dst, n, gid, feats, labels in self.batches:
            yield None, Graph(src, dst, n, gid, feats.clone()), labels.clone(), th.ones_like(labels)


class NET(torch.nn.Module):
    def __init__(self, model, args):
        super(NET, self).__init__()
        self.net = model
        self.optimizer = Adam(model.parameters(), lr=args['lr'])
        self.current_task = 0
        self.fisher_loss = {}
        self.fisher_att = {}
        self.optpar = {}
        self.data_loader = None
        self.lambda_l = args['twp_args']['lambda_l']
        self.lambda_t = args['twp_args']['lambda_t']
        self.beta = args['twp_args']['beta']

    def observe_clsIL(self, data_loader, loss_criterion, task_i, args):
        self.net.train()

        if task_i != self.current_task:
            self.optimizer.zero_grad()
            self.fisher_loss[self.current_task] = []
            self.fisher_att[self.current_task] = []
            self.optpar[self.current_task] = []
            clss_old = []  # activated output heads in last task (self.current_task)
            for tid in range(task_i):
                clss_old.extend(args['tasks'][tid])

            for batch_id, batch_data in enumerate(self.data_loader[self.current_task]):
                smiles, bg, labels, masks = batch_data
                logits, elist = predict(args, self.net, bg)

                # class balance
                n_per_cls = [(labels == j).sum() for j in clss_old]
                loss_w_ = [1. / max(i, 1) for i in n_per_cls]
                loss_w_ = torch.tensor(loss_w_)
                for i, c in enumerate(clss_old):
                    labels[labels == c] = i

                loss = loss_criterion(logits[:, clss_old], labels.long(), weight=loss_w_).float()
                loss.backward(retain_graph=True)

                for p in self.net.parameters():
                    pd = p.data.clone()
                    try:
                        pg = p.grad.data.clone().pow(2)
                        self.fisher_loss[self.current_task].append(pg)
                        self.optpar[self.current_task].append(pd)
                    except:
                        1

                if isinstance(elist, list):
                    eloss = torch.norm(elist[0])
                else:
                    eloss = elist
                eloss.backward()
                for p in self.net.parameters():
                    try:
                        pg = p.grad.data.clone().pow(2)
                        self.fisher_att[self.current_task].append(pg)
                    except:
                        1
                self.current_task = task_i

        clss = []
        for tid in range(task_i + 1):
            clss.extend(args['tasks'][tid])
        for batch_id, batch_data in enumerate(data_loader[task_i]):
            smiles, bg, labels, masks = batch_data
            logits, elist = predict(args, self.net, bg)

            n_per_cls = [(labels == j).sum() for j in clss]
            loss_w_ = [1. / max(i, 1) for i in n_per_cls]
            loss_w_ = torch.tensor(loss_w_)
            for i, c in enumerate(clss):
                labels[labels == c] = i

            loss = loss_criterion(logits[:, clss], labels.long(), weight=loss_w_).float()
            loss.backward(retain_graph=True)
            grad_norm = 0
            for p in self.net.parameters():
                try:
                    pg = p.grad.data.clone()
                    grad_norm += torch.norm(pg, p=1)
                except:
                    1

            for tt in range(task_i):
                i = 0
                for p in self.net.parameters():
                    try:
                        pg = p.grad.data.clone().pow(2)  # error
                        l = self.lambda_l * self.fisher_loss[tt][i] + self.lambda_t * self.fisher_att[tt][i]
                        l = l * (p - self.optpar[tt][i]).pow(2)
                        loss += l.sum()
                        i += 1
                    except:
                        1

            loss = loss + self.beta * grad_norm
            loss.backward()
            self.optimizer.step()
            print(f"task {task_i} batch {batch_id}: loss {loss.item():.4f}")


args = {'lr': 0.01, 'node_data_field': 'h', 'tasks': [[0, 1], [2, 3]],
        'twp_args': {'lambda_l': 100.0, 'lambda_t': 100.0, 'beta': 0.01}}
model = GCNPredictor(in_feats=8, hidden_feats=[16, 16], n_tasks=4)
life_model = NET(model, args)
data_loaders = [GraphLoader(classes) for classes in args['tasks']]
for task_i in range(len(args['tasks'])):
    life_model.data_loader = data_loaders
    life_model.observe_clsIL(data_loaders, F.cross_entropy, task_i, args)
