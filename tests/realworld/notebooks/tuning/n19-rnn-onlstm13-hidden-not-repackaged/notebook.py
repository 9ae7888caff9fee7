# source: variant of https://github.com/yikangshen/Ordered-Neurons/issues/13
# scenario: rnn_state
# cause: recurrent_state_not_detached
# root: cell 4 line 16
# expert: The whole corpus is one long sequence, so the hidden state made once by model.init_hidden() is carried from batch to batch (as the maintainer explains in the issue); without main.py's `hidden = repackage_hidden(hidden)` at the start of each batch, the second batch's loss backpropagates through the first batch's ON-LSTM graph, which loss.backward() already freed. Detach the carried state at the start of every batch with repackage_hidden.
# %%
import math
import time
from types import SimpleNamespace
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# main.py arguments, scaled down
args = SimpleNamespace(model='LSTM', emsize=16, nhid=32, chunk_size=4, nlayers=3, lr=30, clip=0.25,
                       batch_size=4, bptt=8, dropout=0.4, dropouth=0.25, dropouti=0.5, dropoute=0.1,
                       wdrop=0.4, seed=1111, log_interval=2, alpha=2, beta=1, wdecay=1.2e-6)
np.random.seed(args.seed)
torch.manual_seed(args.seed)


def repackage_hidden(h):
    """Wraps hidden states in new Tensors,
    to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


def batchify(data, bsz, args):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    return data


def get_batch(source, i, args, seq_len=None, evaluation=False):
    seq_len = min(seq_len if seq_len else args.bptt, len(source) - 1 - i)
    data = source[i:i+seq_len]
    target = source[i+1:i+1+seq_len].view(-1)
    return data, target
# %%
# ON_LSTM.py, locked_dropout.py and model.py (no embedding dropout)
class LockedDropout(nn.Module):
    def forward(self, x, dropout=0.5):
        if not self.training or not dropout:
            return x
        m = x.data.new(1, x.size(1), x.size(2)).bernoulli_(1 - dropout)
        mask = m / (1 - dropout)
        mask = mask.expand_as(x)
        return mask * x


class LinearDropConnect(nn.Linear):
    def __init__(self, in_features, out_features, bias=True, dropout=0.):
        super(LinearDropConnect, self).__init__(in_features=in_features, out_features=out_features, bias=bias)
        self.dropout = dropout

    def sample_mask(self):
        if self.dropout == 0.:
            self._weight = self.weight
        else:
            mask = self.weight.new_empty(self.weight.size(), dtype=torch.bool)
            mask.bernoulli_(self.dropout)
            self._weight = self.weight.masked_fill(mask, 0.)

    def forward(self, input, sample_mask=False):
        if self.training:
            if sample_mask:
                self.sample_mask()
            return F.linear(input, self._weight, self.bias)
        else:
            return F.linear(input, self.weight * (1 - self.dropout), self.bias)


def cumsoftmax(x, dim=-1):
    return torch.cumsum(F.softmax(x, dim=dim), dim=dim)


class ONLSTMCell(nn.Module):

    def __init__(self, input_size, hidden_size, chunk_size, dropconnect=0.):
        super(ONLSTMCell, self).__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.chunk_size = chunk_size
        self.n_chunk = int(hidden_size / chunk_size)
        self.ih = nn.Sequential(nn.Linear(input_size, 4 * hidden_size + self.n_chunk * 2, bias=True))
        self.hh = LinearDropConnect(hidden_size, hidden_size*4+self.n_chunk*2, bias=True, dropout=dropconnect)
        self.drop_weight_modules = [self.hh]

    def forward(self, input, hidden, transformed_input=None):
        hx, cx = hidden
        if transformed_input is None:
            transformed_input = self.ih(input)
        gates = transformed_input + self.hh(hx)
        cingate, cforgetgate = gates[:, :self.n_chunk*2].chunk(2, 1)
        outgate, cell, ingate, forgetgate = gates[:,self.n_chunk*2:].view(-1, self.n_chunk*4, self.chunk_size).chunk(4,1)

        cingate = 1. - cumsoftmax(cingate)
        cforgetgate = cumsoftmax(cforgetgate)
        distance_cforget = 1. - cforgetgate.sum(dim=-1) / self.n_chunk
        distance_cin = cingate.sum(dim=-1) / self.n_chunk
        cingate = cingate[:, :, None]
        cforgetgate = cforgetgate[:, :, None]

        ingate = torch.sigmoid(ingate)
        forgetgate = torch.sigmoid(forgetgate)
        cell = torch.tanh(cell)
        outgate = torch.sigmoid(outgate)

        overlap = cforgetgate * cingate
        forgetgate = forgetgate * overlap + (cforgetgate - overlap)
        ingate = ingate * overlap + (cingate - overlap)
        cy = forgetgate * cx + ingate * cell
        hy = outgate * torch.tanh(cy)
        return hy.view(-1, self.hidden_size), cy, (distance_cforget, distance_cin)

    def init_hidden(self, bsz):
        weight = next(self.parameters()).data
        return (weight.new(bsz, self.hidden_size).zero_(),
                weight.new(bsz, self.n_chunk, self.chunk_size).zero_())

    def sample_masks(self):
        for m in self.drop_weight_modules:
            m.sample_mask()


class ONLSTMStack(nn.Module):
    def __init__(self, layer_sizes, chunk_size, dropout=0., dropconnect=0.):
        super(ONLSTMStack, self).__init__()
        self.cells = nn.ModuleList([ONLSTMCell(layer_sizes[i], layer_sizes[i+1], chunk_size, dropconnect=dropconnect)
                                    for i in range(len(layer_sizes) - 1)])
        self.lockdrop = LockedDropout()
        self.dropout = dropout
        self.sizes = layer_sizes

    def init_hidden(self, bsz):
        return [c.init_hidden(bsz) for c in self.cells]

    def forward(self, input, hidden):
        length, batch_size, _ = input.size()
        if self.training:
            for c in self.cells:
                c.sample_masks()

        prev_state = list(hidden)
        prev_layer = input
        raw_outputs = []
        outputs = []
        for l in range(len(self.cells)):
            curr_layer = [None] * length
            t_input = self.cells[l].ih(prev_layer)
            for t in range(length):
                hidden, cell, d = self.cells[l](None, prev_state[l], transformed_input=t_input[t])
                prev_state[l] = hidden, cell  # overwritten every timestep
                curr_layer[t] = hidden
            prev_layer = torch.stack(curr_layer)
            raw_outputs.append(prev_layer)
            if l < len(self.cells) - 1:
                prev_layer = self.lockdrop(prev_layer, self.dropout)
            outputs.append(prev_layer)
        output = prev_layer
        return output, prev_state, raw_outputs, outputs


class RNNModel(nn.Module):
    """Container module with an encoder, a recurrent module, and a decoder."""

    def __init__(self, rnn_type, ntoken, ninp, nhid, chunk_size, nlayers, dropout=0.5, dropouth=0.5, dropouti=0.5, dropoute=0.1, wdrop=0, tie_weights=False):
        super(RNNModel, self).__init__()
        self.lockdrop = LockedDropout()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = ONLSTMStack([ninp] + [nhid] * (nlayers - 1) + [ninp], chunk_size=chunk_size, dropconnect=wdrop, dropout=dropouth)
        self.decoder = nn.Linear(ninp, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type = rnn_type
        self.dropout = dropout
        self.dropouti = dropouti

    def init_weights(self):
        initrange = 0.1
        self.encoder.weight.data.uniform_(-initrange, initrange)
        self.decoder.bias.data.fill_(0)
        self.decoder.weight.data.uniform_(-initrange, initrange)

    def forward(self, input, hidden, return_h=False):
        emb = self.encoder(input)
        emb = self.lockdrop(emb, self.dropouti)
        raw_output, hidden, raw_outputs, outputs = self.rnn(emb, hidden)
        output = self.lockdrop(raw_output, self.dropout)
        result = output.view(output.size(0)*output.size(1), output.size(2))
        if return_h:
            return result, hidden, raw_outputs, outputs
        else:
            return result, hidden

    def init_hidden(self, bsz):
        return self.rnn.init_hidden(bsz)
# %%
# a random token stream instead of the Penn Treebank corpus
ntokens = 30
train_data = batchify(torch.randint(0, ntokens, (200,)), args.batch_size, args)
model = RNNModel(args.model, ntokens, args.emsize, args.nhid, args.chunk_size, args.nlayers,
                 args.dropout, args.dropouth, args.dropouti, args.dropoute, args.wdrop, tie_weights=True)

def criterion(weight, bias, hiddens, targets):
    """SplitCrossEntropyLoss(args.emsize, splits=[]) is a plain softmax cross-entropy over the decoder."""
    return F.cross_entropy(F.linear(hiddens, weight, bias), targets)

params = list(model.parameters())
optimizer = torch.optim.SGD(params, lr=args.lr, weight_decay=args.wdecay)
# %%
hidden = model.init_hidden(args.batch_size)
epoch = 1
# %%
total_loss = 0
start_time = time.time()
batch, i = 0, 0
while i < train_data.size(0) - 1 - 1:
    bptt = args.bptt if np.random.random() < 0.95 else args.bptt / 2.
    # Prevent excessively small or negative sequence lengths
    seq_len = max(5, int(np.random.normal(bptt, 5)))

    lr2 = optimizer.param_groups[0]['lr']
    optimizer.param_groups[0]['lr'] = lr2 * seq_len / args.bptt
    model.train()
    data, targets = get_batch(train_data, i, args, seq_len=seq_len)

    optimizer.zero_grad()

    output, hidden, rnn_hs, dropped_rnn_hs = model(data, hidden, return_h=True)
    raw_loss = criterion(model.decoder.weight, model.decoder.bias, output, targets)

    loss = raw_loss
    # Activiation Regularization
    if args.alpha:
        loss = loss + sum(args.alpha * dropped_rnn_h.pow(2).mean() for dropped_rnn_h in dropped_rnn_hs[-1:])
    # Temporal Activation Regularization (slowness)
    if args.beta:
        loss = loss + sum(args.beta * (rnn_h[1:] - rnn_h[:-1]).pow(2).mean() for rnn_h in rnn_hs[-1:])
    loss.backward()

    # `clip_grad_norm` helps prevent the exploding gradient problem in RNNs / LSTMs.
    if args.clip: torch.nn.utils.clip_grad_norm_(params, args.clip)
    optimizer.step()

    total_loss += raw_loss.data
    optimizer.param_groups[0]['lr'] = lr2
    if batch % args.log_interval == 0 and batch > 0:
        cur_loss = total_loss.item() / args.log_interval
        print('| epoch {:3d} | {:5d} batches | loss {:5.2f} | ppl {:8.2f}'.format(epoch, batch, cur_loss, math.exp(cur_loss)))
        total_loss = 0
    batch += 1
    i += seq_len
