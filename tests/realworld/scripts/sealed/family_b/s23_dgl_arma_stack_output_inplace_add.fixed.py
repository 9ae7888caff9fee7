# source: https://github.com/dmlc/dgl/issues/4202
# style: gnn
# cause: inplace_modified_saved_tensor
# line: 172
# expert: ARMAConv.forward sums the K stack outputs with `output += feats`; the first stack's output is the result of the ReLU activation, which ReluBackward saved for the backward pass, so the in-place add bumps its version and train_loss.backward() fails ("output 0 of ReluBackward0 ... is at version 1"). Fixed in dgl PR #4218: collect the stack outputs in a list and return torch.stack(output).mean(dim=0) instead of adding in place.
# examples/pytorch/arma/model.py and citation.py as they were before dgl PR #4218 (the fix of issue
# #4202). dgl itself is replaced by a tiny dense-adjacency graph with ndata, local_scope, in_degrees
# and update_all(copy_u, sum); a random 120-node citation-like graph replaces Cora, the 100 repeated
# runs become one run of 30 epochs, seeded, on CPU.
import argparse
import contextlib
import copy
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from tqdm import trange

torch.manual_seed(0)
np.random.seed(0)


# ---- minimal stand-in for dgl.function and a DGLGraph (dense adjacency) ----
class fn:
    @staticmethod
    def copy_u(src, out):
        return ("copy_u", src, out)

    @staticmethod
    def sum(msg, out):
        return ("sum", msg, out)


class Graph:
    def __init__(self, adj, ndata):
        self.adj = adj  # adj[v, u] = 1 for an edge u -> v
        self.ndata = ndata

    @contextlib.contextmanager
    def local_scope(self):
        saved = dict(self.ndata)
        try:
            yield
        finally:
            self.ndata = saved

    def in_degrees(self):
        return self.adj.sum(1).long()

    def update_all(self, message_func, reduce_func):
        _, src, _ = message_func
        _, _, out = reduce_func
        self.ndata[out] = self.adj @ self.ndata[src]

    def to(self, device):
        return self


class CoraGraphDataset:
    """120 random nodes, 7 classes, 32 bag-of-words-like features, symmetric random edges."""
    num_classes = 7

    def __getitem__(self, idx):
        n, d = 120, 32
        labels = torch.randint(0, self.num_classes, (n,))
        centers = torch.randn(self.num_classes, d)
        feat = (centers[labels] + torch.randn(n, d) > 0.8).float()
        same = labels[:, None] == labels[None, :]
        adj = (torch.rand(n, n) < torch.where(same, 0.08, 0.01)).float()
        adj = ((adj + adj.t()) > 0).float()
        adj.fill_diagonal_(0)
        perm = torch.randperm(n)
        train_mask = torch.zeros(n, dtype=torch.bool); train_mask[perm[:40]] = True
        val_mask = torch.zeros(n, dtype=torch.bool); val_mask[perm[40:80]] = True
        test_mask = torch.zeros(n, dtype=torch.bool); test_mask[perm[80:]] = True
        return Graph(adj, {'feat': feat, 'label': labels, 'train_mask': train_mask,
                           'val_mask': val_mask, 'test_mask': test_mask})


# ---- examples/pytorch/arma/model.py ----
def glorot(tensor):
    if tensor is not None:
        stdv = math.sqrt(6.0 / (tensor.size(-2) + tensor.size(-1)))
        tensor.data.uniform_(-stdv, stdv)

def zeros(tensor):
    if tensor is not None:
        tensor.data.fill_(0)

class ARMAConv(nn.Module):
    def __init__(self,
                 in_dim,
                 out_dim,
                 num_stacks,
                 num_layers,
                 activation=None,
                 dropout=0.0,
                 bias=True):
        super(ARMAConv, self).__init__()
        
        self.in_dim = in_dim
        self.out_dim = out_dim
        self.K = num_stacks
        self.T = num_layers
        self.activation = activation
        self.dropout = nn.Dropout(p=dropout)

        # init weight
        self.w_0 = nn.ModuleDict({
            str(k): nn.Linear(in_dim, out_dim, bias=False) for k in range(self.K)
        })
        # deeper weight
        self.w = nn.ModuleDict({
            str(k): nn.Linear(out_dim, out_dim, bias=False) for k in range(self.K)
        })
        # v
        self.v = nn.ModuleDict({
            str(k): nn.Linear(in_dim, out_dim, bias=False) for k in range(self.K)
        })
        # bias
        if bias:
            self.bias = nn.Parameter(torch.Tensor(self.K, self.T, 1, self.out_dim))
        else:
            self.register_parameter('bias', None)
        
        self.reset_parameters()

    def reset_parameters(self):
        for k in range(self.K):
            glorot(self.w_0[str(k)].weight)
            glorot(self.w[str(k)].weight)
            glorot(self.v[str(k)].weight)
        zeros(self.bias)

    def forward(self, g, feats):
        with g.local_scope():
            init_feats = feats
            # assume that the graphs are undirected and graph.in_degrees() is the same as graph.out_degrees()
            degs = g.in_degrees().float().clamp(min=1)
            norm = torch.pow(degs, -0.5).to(feats.device).unsqueeze(1)
            output = [] 

            for k in range(self.K):
                feats = init_feats
                for t in range(self.T):
                    feats = feats * norm
                    g.ndata['h'] = feats
                    g.update_all(fn.copy_u('h', 'm'), fn.sum('m', 'h'))
                    feats = g.ndata.pop('h')
                    feats = feats * norm

                    if t == 0:
                        feats = self.w_0[str(k)](feats)
                    else:
                        feats = self.w[str(k)](feats)
                    
                    feats += self.dropout(self.v[str(k)](init_feats))
                    feats += self.v[str(k)](self.dropout(init_feats))

                    if self.bias is not None:
                        feats += self.bias[k][t]
                    
                    if self.activation is not None:
                        feats = self.activation(feats)
                    
                output.append(feats)

            return torch.stack(output).mean(dim=0)

class ARMA4NC(nn.Module):
    def __init__(self,
                 in_dim,
                 hid_dim,
                 out_dim,
                 num_stacks,
                 num_layers,
                 activation=None,
                 dropout=0.0):
        super(ARMA4NC, self).__init__()

        self.conv1 = ARMAConv(in_dim=in_dim,
                              out_dim=hid_dim,
                              num_stacks=num_stacks,
                              num_layers=num_layers,
                              activation=activation,
                              dropout=dropout)

        self.conv2 = ARMAConv(in_dim=hid_dim,
                              out_dim=out_dim,
                              num_stacks=num_stacks,
                              num_layers=num_layers,
                              activation=activation,
                              dropout=dropout)
        
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, g, feats):
        feats = F.relu(self.conv1(g, feats))
        feats = self.dropout(feats)
        feats = self.conv2(g, feats)
        return feats


# ---- examples/pytorch/arma/citation.py ----
def main(args):
    # Step 1: Prepare graph data and retrieve train/validation/test index ============================= #
    # Load from DGL dataset
    if args.dataset == 'Cora':
        dataset = CoraGraphDataset()
    else:
        raise ValueError('Dataset {} is invalid.'.format(args.dataset))
    
    graph = dataset[0]

    # check cuda
    device = f'cuda:{args.gpu}' if args.gpu >= 0 and torch.cuda.is_available() else 'cpu'

    # retrieve the number of classes
    n_classes = dataset.num_classes

    # retrieve labels of ground truth
    labels = graph.ndata.pop('label').to(device).long()

    # Extract node features
    feats = graph.ndata.pop('feat').to(device)
    n_features = feats.shape[-1]

    # retrieve masks for train/validation/test
    train_mask = graph.ndata.pop('train_mask')
    val_mask = graph.ndata.pop('val_mask')
    test_mask = graph.ndata.pop('test_mask')

    train_idx = torch.nonzero(train_mask, as_tuple=False).squeeze().to(device)
    val_idx = torch.nonzero(val_mask, as_tuple=False).squeeze().to(device)
    test_idx = torch.nonzero(test_mask, as_tuple=False).squeeze().to(device)

    graph = graph.to(device)

    # Step 2: Create model =================================================================== #
    model = ARMA4NC(in_dim=n_features,
                    hid_dim=args.hid_dim,
                    out_dim=n_classes,
                    num_stacks=args.num_stacks,
                    num_layers=args.num_layers,
                    activation=nn.ReLU(),
                    dropout=args.dropout).to(device)
    
    best_model = copy.deepcopy(model)

    # Step 3: Create training components ===================================================== #
    loss_fn = nn.CrossEntropyLoss()
    opt = optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.lamb)

    # Step 4: training epoches =============================================================== #
    acc = 0
    no_improvement = 0
    epochs = trange(args.epochs, desc='Accuracy & Loss')

    for _ in epochs:
        # Training using a full graph
        model.train()

        logits = model(graph, feats)

        # compute loss
        train_loss = loss_fn(logits[train_idx], labels[train_idx])
        train_acc = torch.sum(logits[train_idx].argmax(dim=1) == labels[train_idx]).item() / len(train_idx)

        # backward
        opt.zero_grad()
        train_loss.backward()
        opt.step()

        # Validation using a full graph
        model.eval()

        with torch.no_grad():
            valid_loss = loss_fn(logits[val_idx], labels[val_idx])
            valid_acc = torch.sum(logits[val_idx].argmax(dim=1) == labels[val_idx]).item() / len(val_idx)

        # Print out performance
        epochs.set_description('Train Acc {:.4f} | Train Loss {:.4f} | Val Acc {:.4f} | Val loss {:.4f}'.format(
            train_acc, train_loss.item(), valid_acc, valid_loss.item()))
        
        if valid_acc < acc:
            no_improvement += 1
            if no_improvement == args.early_stopping:
                print('Early stop.')
                break
        else:
            no_improvement = 0
            acc = valid_acc
            best_model = copy.deepcopy(model)

    best_model.eval()
    logits = best_model(graph, feats)
    test_acc = torch.sum(logits[test_idx].argmax(dim=1) == labels[test_idx]).item() / len(test_idx)

    print("Test Acc {:.4f}".format(test_acc))
    return test_acc

if __name__ == "__main__":
    """
    ARMA Model Hyperparameters
    """
    parser = argparse.ArgumentParser(description='ARMA GCN')

    # data source params
    parser.add_argument('--dataset', type=str, default='Cora', help='Name of dataset.')
    # cuda params
    parser.add_argument('--gpu', type=int, default=-1, help='GPU index. Default: -1, using CPU.')
    # training params
    parser.add_argument('--epochs', type=int, default=30, help='Training epochs.')
    parser.add_argument('--early-stopping', type=int, default=100, help='Patient epochs to wait before early stopping.')
    parser.add_argument('--lr', type=float, default=0.01, help='Learning rate.')
    parser.add_argument('--lamb', type=float, default=5e-4, help='L2 reg.')
    # model params
    parser.add_argument("--hid-dim", type=int, default=16, help='Hidden layer dimensionalities.')
    parser.add_argument("--num-stacks", type=int, default=2, help='Number of K.')
    parser.add_argument("--num-layers", type=int, default=1, help='Number of T.')
    parser.add_argument("--dropout", type=float, default=0.75, help='Dropout applied at all layers.')

    args = parser.parse_args([])  # run without command-line arguments
    print(args)

    acc_lists = []

    for _ in range(1):
        acc_lists.append(main(args))

    mean = np.around(np.mean(acc_lists, axis=0), decimals=3)
    std = np.around(np.std(acc_lists, axis=0), decimals=3)
    print('Total acc: ', acc_lists)
    print('mean', mean)
    print('std', std)
