# source: variant of https://github.com/carpedm20/ENAS-pytorch/commit/92c6ee78097c4c19837005168f77111e78dcbf0b ("added back the passing of hiddens from one batch to the next in the training loop": Trainer.train_shared/get_loss and the shared RNN cell of models/shared_rnn.py at that commit, written here without the hidden = utils.detach(hidden) line that comes with it; a fixed chain-shaped controller sample, a tiny vocabulary and random token batches instead of PTB, no embedding/locked dropout)
# style: nas
# cause: recurrent_state_not_detached
# line: 246
# expert: train_shared passes the shared RNN's last hidden state from one minibatch to the next (truncated BPTT over the corpus), so without cutting it the next loss.backward() runs back into the previous minibatch's cell graph, which the previous backward already freed. The commit pairs the hidden passing with hidden = utils.detach(hidden) right after get_loss, so each step backpropagates only through its own 35-token window.
import collections

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)

Node = collections.namedtuple('Node', ['id', 'name'])


class Args:
    num_blocks = 4
    shared_embed = 16
    shared_hid = 16
    batch_size = 4
    max_length = 5
    shared_num_sample = 1
    shared_max_step = 6
    shared_grad_clip = 0.25
    shared_lr = 1.0
    mode = 'train'
    cuda = False


def detach(h):
    """utils.detach"""
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(detach(v) for v in h)


class Corpus:
    """Stands in for the PTB corpus: random token ids."""

    def __init__(self, num_tokens=20, length=200):
        self.num_tokens = num_tokens
        self.train = torch.randint(0, num_tokens, (length,))


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


class Controller:
    """Fixed stand-in for the LSTM controller: always samples the same chain-shaped DAG."""

    def __init__(self, args):
        self.args = args
        self.activations = ['tanh', 'relu', 'identity', 'sigmoid']

    def sample(self, batch_size=1):
        dags = []
        for _ in range(batch_size):
            dag = collections.defaultdict(list)
            dag[-1] = [Node(0, self.activations[0])]
            for idx in range(self.args.num_blocks - 1):
                dag[idx] = [Node(idx + 1, self.activations[(idx + 1) % 4])]
            dag[self.args.num_blocks - 1] = [Node(self.args.num_blocks, 'avg')]
            dags.append(dag)
        return dags


class RNN(nn.Module):
    """Shared RNN model (models/shared_rnn.py)."""

    def __init__(self, args, corpus):
        super().__init__()
        self.args = args
        self.corpus = corpus

        self.encoder = nn.Embedding(corpus.num_tokens, args.shared_embed)
        self.decoder = nn.Linear(args.shared_hid, corpus.num_tokens)

        self.w_xh = nn.Linear(args.shared_embed + args.shared_hid, args.shared_hid)
        self.w_xc = nn.Linear(args.shared_embed + args.shared_hid, args.shared_hid)

        self.w_h = collections.defaultdict(dict)
        self.w_c = collections.defaultdict(dict)

        for idx in range(args.num_blocks):
            for jdx in range(idx + 1, args.num_blocks):
                self.w_h[idx][jdx] = nn.Linear(args.shared_hid, args.shared_hid, bias=False)
                self.w_c[idx][jdx] = nn.Linear(args.shared_hid, args.shared_hid, bias=False)

        self._w_h = nn.ModuleList([self.w_h[idx][jdx]
                                   for idx in self.w_h
                                   for jdx in self.w_h[idx]])
        self._w_c = nn.ModuleList([self.w_c[idx][jdx]
                                   for idx in self.w_c
                                   for jdx in self.w_c[idx]])

        if args.mode == 'train':
            self.batch_norm = nn.BatchNorm1d(args.shared_hid)
        else:
            self.batch_norm = None

    def forward(self, inputs, dag, hidden=None, is_train=True):
        time_steps = inputs.size(0)
        batch_size = inputs.size(1)

        if hidden is None:
            hidden = self.init_hidden(batch_size)

        embed = self.encoder(inputs)

        logits = []
        for step in range(time_steps):
            x_t = embed[step]
            logit, hidden = self.cell(x_t, hidden, dag)
            logits.append(logit)

        output = torch.stack(logits)

        decoded = self.decoder(output.view(output.size(0) * output.size(1), output.size(2)))
        return decoded.view(output.size(0), output.size(1), decoded.size(1)), hidden

    def cell(self, x, h_prev, dag):
        c = {}
        h = {}
        f = {}

        f[0] = self.get_f(dag[-1][0].name)
        c[0] = torch.sigmoid(self.w_xc(torch.cat([x, h_prev], -1)))
        h[0] = c[0] * f[0](self.w_xh(torch.cat([x, h_prev], -1))) + (1 - c[0]) * h_prev

        leaf_node_ids = []
        q = collections.deque()
        q.append(0)

        while True:
            if len(q) == 0:
                break

            node_id = q.popleft()
            nodes = dag[node_id]

            for next_node in nodes:
                next_id = next_node.id
                if next_id == self.args.num_blocks:
                    leaf_node_ids.append(node_id)
                    assert len(nodes) == 1, ('parent of leaf node should have '
                                             'only one child')
                    continue

                w_h = self.w_h[node_id][next_id]
                w_c = self.w_c[node_id][next_id]

                f[next_id] = self.get_f(next_node.name)
                c[next_id] = torch.sigmoid(w_c(h[node_id]))
                h[next_id] = (c[next_id] * f[next_id](w_h(h[node_id])) +
                              (1 - c[next_id]) * h[node_id])

                q.append(next_id)

        leaf_nodes = [h[node_id] for node_id in leaf_node_ids]
        output = torch.mean(torch.stack(leaf_nodes, 2), -1)

        if self.batch_norm is not None:
            output = self.batch_norm(output)

        return output, h[self.args.num_blocks - 1]

    def init_hidden(self, batch_size):
        return torch.zeros(batch_size, self.args.shared_hid)

    def get_f(self, name):
        name = name.lower()
        if name == 'relu':
            f = F.relu
        elif name == 'tanh':
            f = torch.tanh
        elif name == 'identity':
            f = lambda x: x
        elif name == 'sigmoid':
            f = torch.sigmoid
        return f


class Trainer(object):
    def __init__(self, args, dataset):
        self.args = args
        self.dataset = dataset
        self.max_length = args.max_length
        self.train_data = batchify(dataset.train, args.batch_size)
        self.controller = Controller(args)
        self.shared = RNN(args, dataset)
        self.shared_optim = torch.optim.SGD(self.shared.parameters(), lr=args.shared_lr)
        self.ce = nn.CrossEntropyLoss()
        self.shared_step = 0

    def get_batch(self, source, idx, length=None):
        length = min(length if length else self.max_length, len(source) - 1 - idx)
        data = source[idx:idx + length]
        target = source[idx + 1:idx + 1 + length].view(-1)
        return data, target

    def get_loss(self, inputs, targets, hidden, dags, with_hidden=False):
        if not isinstance(dags, list):
            dags = [dags]

        loss = 0
        for dag in dags:
            # previous hidden is useless
            output, hidden = self.shared(inputs, dag, hidden=hidden)
            output_flat = output.view(-1, self.dataset.num_tokens)
            sample_loss = self.ce(output_flat, targets) / self.args.shared_num_sample
            loss += sample_loss

        if with_hidden:
            assert len(dags) == 1, 'there are multiple `hidden` for multple `dags`'
            return loss, hidden
        return loss

    def train_shared(self, max_step=None):
        model = self.shared
        model.train()

        hidden = self.shared.init_hidden(self.args.batch_size)

        if max_step is None:
            max_step = self.args.shared_max_step
        else:
            max_step = min(self.args.shared_max_step, max_step)

        step = 0
        total_loss = 0
        train_idx = 0
        while train_idx < self.train_data.size(0) - 1 - 1:
            if step > max_step:
                break

            dags = self.controller.sample(self.args.shared_num_sample)
            inputs, targets = self.get_batch(self.train_data,
                                             train_idx,
                                             self.max_length)

            loss, hidden = self.get_loss(inputs,
                                         targets,
                                         hidden,
                                         dags,
                                         with_hidden=True)
            hidden = detach(hidden)

            # update
            self.shared_optim.zero_grad()
            loss.backward()

            torch.nn.utils.clip_grad_norm_(model.parameters(),
                                           self.args.shared_grad_clip)
            self.shared_optim.step()

            total_loss += loss.data
            print(f'train_shared | step {step} | loss {loss.item():.3f}')

            step += 1
            self.shared_step += 1
            train_idx += self.max_length


trainer = Trainer(Args(), Corpus())
trainer.train_shared()
