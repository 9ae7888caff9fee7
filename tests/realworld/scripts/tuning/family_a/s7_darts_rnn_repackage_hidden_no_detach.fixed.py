# source: variant of https://github.com/quark0/darts/issues/56
# style: nas
# cause: recurrent_state_not_detached
# line: 20
# expert: The user's PyTorch-0.4 port of `repackage_hidden` (originally `Variable(h.data)`) returns the hidden tensor unchanged, so the RNN cell search carries hidden/hidden_valid with their graphs into the next architect/weight step and backpropagates into already-freed graphs; the answer is to make `repackage_hidden` return `h.detach()` for tensors.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)

PRIMITIVES = ["tanh", "relu", "sigmoid", "identity"]
STEPS = 2


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


class DARTSCellSearch(nn.Module):
    def __init__(self, ninp, nhid):
        super().__init__()
        self.nhid = nhid
        self._W0 = nn.Parameter(torch.randn(ninp + nhid, 2 * nhid) * 0.1)
        self._Ws = nn.ParameterList([nn.Parameter(torch.randn(nhid, 2 * nhid) * 0.1) for _ in range(STEPS)])

    def _compute_init_state(self, x, h_prev):
        c0, h0 = torch.split(torch.cat([x, h_prev], dim=-1).mm(self._W0), self.nhid, dim=-1)
        return h_prev + c0.sigmoid() * (h0.tanh() - h_prev)

    def cell(self, x, h_prev, weights):
        s0 = self._compute_init_state(x, h_prev)
        states = [s0]
        for i in range(STEPS):
            c, h = torch.split(states[-1].mm(self._Ws[i]), self.nhid, dim=-1)
            c = c.sigmoid()
            s = 0
            for k, name in enumerate(PRIMITIVES):
                fn = {"tanh": torch.tanh, "relu": torch.relu, "sigmoid": torch.sigmoid, "identity": lambda t: t}[name]
                s = s + weights[i, k] * (states[-1] + c * (fn(h) - states[-1]))
            states.append(s)
        return torch.mean(torch.stack(states[1:], -1), -1)

    def forward(self, inputs, hidden, weights):
        T = inputs.size(0)
        h = hidden[0]
        hiddens = []
        for t in range(T):
            h = self.cell(inputs[t], h, weights)
            hiddens.append(h)
        return torch.stack(hiddens), hiddens[-1].unsqueeze(0)


class RNNModelSearch(nn.Module):
    def __init__(self, ntoken, ninp, nhid):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = DARTSCellSearch(ninp, nhid)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid = nhid
        self.weights = nn.Parameter(1e-3 * torch.randn(STEPS, len(PRIMITIVES)))

    def arch_parameters(self):
        return [self.weights]

    def network_parameters(self):
        return [p for n, p in self.named_parameters() if n != "weights"]

    def init_hidden(self, bsz):
        return [torch.zeros(bsz, self.nhid)]

    def forward(self, input, hidden):
        emb = self.encoder(input)
        output, new_h = self.rnn(emb, hidden, F.softmax(self.weights, dim=-1))
        log_prob = F.log_softmax(self.decoder(output), dim=-1)
        return log_prob, [new_h[0]]

    def _loss(self, hidden, input, target):
        log_prob, hidden_next = self(input, hidden)
        loss = F.nll_loss(log_prob.view(-1, log_prob.size(2)), target)
        return loss, hidden_next


class Architect(object):
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(self.model.arch_parameters(), lr=3e-3, weight_decay=1e-3)

    def step(self, hidden_train, input_train, target_train, hidden_valid, input_valid, target_valid,
             network_optimizer, unrolled):
        self.optimizer.zero_grad()
        hidden = self._backward_step(hidden_valid, input_valid, target_valid)
        self.optimizer.step()
        return hidden, None

    def _backward_step(self, hidden, input, target):
        loss, hidden_next = self.model._loss(hidden, input, target)
        loss.backward()
        return hidden_next


ntokens, bptt, batch_size, small_batch_size = 20, 5, 4, 4
train_data = torch.randint(0, ntokens, (40, batch_size))
search_data = torch.randint(0, ntokens, (40, batch_size))
model = RNNModelSearch(ntokens, 8, 8)
architect = Architect(model)
optimizer = torch.optim.SGD(model.network_parameters(), lr=0.5)


def get_batch(source, i, seq_len=None):
    seq_len = min(seq_len if seq_len else bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len]


def train():
    hidden = [model.init_hidden(small_batch_size) for _ in range(batch_size // small_batch_size)]
    hidden_valid = [model.init_hidden(small_batch_size) for _ in range(batch_size // small_batch_size)]
    i = 0
    while i < 3 * bptt:
        seq_len = bptt
        model.train()
        data_valid, targets_valid = get_batch(search_data, i % (search_data.size(0) - 1))
        data, targets = get_batch(train_data, i, seq_len=seq_len)
        optimizer.zero_grad()
        start, end, s_id = 0, small_batch_size, 0
        while start < batch_size:
            cur_data, cur_targets = data[:, start:end], targets[:, start:end].contiguous().view(-1)
            cur_data_valid, cur_targets_valid = data_valid[:, start:end], targets_valid[:, start:end].contiguous().view(-1)
            # Starting each batch, we detach the hidden state from how it was previously produced.
            hidden[s_id] = repackage_hidden(hidden[s_id])
            hidden_valid[s_id] = repackage_hidden(hidden_valid[s_id])
            hidden_valid[s_id], grad_norm = architect.step(
                hidden[s_id], cur_data, cur_targets,
                hidden_valid[s_id], cur_data_valid, cur_targets_valid,
                optimizer, False)
            optimizer.zero_grad()
            hidden[s_id] = repackage_hidden(hidden[s_id])
            log_prob, hidden[s_id] = model(cur_data, hidden[s_id])
            loss = F.nll_loss(log_prob.view(-1, log_prob.size(2)), cur_targets)
            loss.backward()
            s_id += 1
            start = end
            end = start + small_batch_size
        torch.nn.utils.clip_grad_norm_(model.network_parameters(), 0.25)
        optimizer.step()
        print("step", i, "loss", loss.item())
        i += seq_len


train()
