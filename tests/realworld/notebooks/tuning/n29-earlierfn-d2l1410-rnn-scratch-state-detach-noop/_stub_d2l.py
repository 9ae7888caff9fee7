"""Stand-in for `from d2l import torch as d2l` (d2l/torch.py of August 2020, commit e5f7161):
only the helpers the RNN-from-scratch section uses. The Time Machine is not downloaded: a few
of its opening lines are kept here, and the random offset of the sequence iterator comes from a
seeded random.Random."""
import collections
import random
import re
import time

import numpy as np
import torch

TIME_MACHINE = """The Time Machine, by H. G. Wells [1898]
I
The Time Traveller (for so it will be convenient to speak of him)
was expounding a recondite matter to us. His grey eyes shone and
twinkled, and his usually pale face was flushed and animated. The
fire burned brightly, and the soft radiance of the incandescent
lights in the lilies of silver caught the bubbles that flashed and
passed in our glasses. Our chairs, being his patents, embraced and
caressed us rather than submitted to be sat upon, and there was that
luxurious after-dinner atmosphere when thought roams gracefully
free of the trammels of precision. And he put it to us in this
way--marking the points with a lean forefinger--as we sat and lazily
admired his earnestness over this new paradox (as we thought it)
and his fecundity.
'You must follow me carefully. I shall have to controvert one or two
ideas that are almost universally accepted. The geometry, for
instance, they taught you at school is founded on a misconception.'
'Is not that rather a large thing to expect us to begin upon?'
said Filby, an argumentative person with red hair.
'I do not mean to ask you to accept anything without reasonable
ground for it. You will soon admit as much as I need from you. You
know of course that a mathematical line, a line of thickness NIL,
has no real existence. They taught you that? Neither has a
mathematical plane. These things are mere abstractions.'
"""

zeros = torch.zeros
tensor = torch.tensor
size = lambda a: a.numel()


class Timer:
    """Record multiple running times."""
    def __init__(self):
        self.times = []
        self.start()

    def start(self):
        self.tik = time.time()

    def stop(self):
        self.times.append(time.time() - self.tik)
        return self.times[-1]


def sgd(params, lr, batch_size):
    """Minibatch stochastic gradient descent."""
    for param in params:
        param.data.sub_(lr*param.grad/batch_size)
        param.grad.data.zero_()


class Accumulator:
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


class Animator:
    """Prints instead of plotting."""
    def __init__(self, xlabel=None, ylabel=None, legend=None, xlim=None, **kwargs):
        self.legend = legend

    def add(self, x, y):
        print('epoch', x, dict(zip(self.legend, y)))


def try_gpu(i=0):
    return torch.device('cpu')


def read_time_machine():
    lines = TIME_MACHINE.splitlines()
    return [re.sub('[^A-Za-z]+', ' ', line.strip().lower()) for line in lines]


def tokenize(lines, token='word'):
    if token == 'word':
        return [line.split(' ') for line in lines]
    return [list(line) for line in lines]


def count_corpus(sentences):
    tokens = [tk for line in sentences for tk in line]
    return collections.Counter(tokens)


class Vocab:
    def __init__(self, tokens, min_freq=0, reserved_tokens=None):
        if reserved_tokens is None:
            reserved_tokens = []
        counter = count_corpus(tokens)
        self.token_freqs = sorted(counter.items(), key=lambda x: x[0])
        self.token_freqs.sort(key=lambda x: x[1], reverse=True)
        self.unk, uniq_tokens = 0, ['<unk>'] + reserved_tokens
        uniq_tokens += [token for token, freq in self.token_freqs
                        if freq >= min_freq and token not in uniq_tokens]
        self.idx_to_token, self.token_to_idx = [], dict()
        for token in uniq_tokens:
            self.idx_to_token.append(token)
            self.token_to_idx[token] = len(self.idx_to_token) - 1

    def __len__(self):
        return len(self.idx_to_token)

    def __getitem__(self, tokens):
        if not isinstance(tokens, (list, tuple)):
            return self.token_to_idx.get(tokens, self.unk)
        return [self.__getitem__(token) for token in tokens]


def load_corpus_time_machine(max_tokens=-1):
    lines = read_time_machine()
    tokens = tokenize(lines, 'char')
    vocab = Vocab(tokens)
    corpus = [vocab[tk] for line in tokens for tk in line]
    if max_tokens > 0:
        corpus = corpus[:max_tokens]
    return corpus, vocab


def seq_data_iter_consecutive(corpus, batch_size, num_steps, rng=random):
    offset = rng.randint(0, num_steps)
    num_indices = ((len(corpus) - offset - 1) // batch_size) * batch_size
    Xs = tensor(corpus[offset:offset+num_indices])
    Ys = tensor(corpus[offset+1:offset+1+num_indices])
    Xs, Ys = Xs.reshape(batch_size, -1), Ys.reshape(batch_size, -1)
    num_batches = Xs.shape[1] // num_steps
    for i in range(0, num_batches * num_steps, num_steps):
        X = Xs[:, i:(i+num_steps)]
        Y = Ys[:, i:(i+num_steps)]
        yield X, Y


class SeqDataLoader:
    """An iterator to load sequence data (sequential partitioning only)."""
    def __init__(self, batch_size, num_steps, use_random_iter, max_tokens):
        self.corpus, self.vocab = load_corpus_time_machine(max_tokens)
        self.batch_size, self.num_steps = batch_size, num_steps
        self.rng = random.Random(0)

    def __iter__(self):
        return seq_data_iter_consecutive(self.corpus, self.batch_size, self.num_steps, self.rng)


def load_data_time_machine(batch_size, num_steps, use_random_iter=False, max_tokens=10000):
    data_iter = SeqDataLoader(batch_size, num_steps, use_random_iter, max_tokens)
    return data_iter, data_iter.vocab
