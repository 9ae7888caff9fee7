# source: variant of https://gist.github.com/ChunML/fa1e23850a4d845030a38af2754cadf6
# scenario: clean
# order: 0 1 2 3 3
# expert: the LSTM text generator carries (state_h, state_c) from batch to batch but detaches both right after computing the loss, and re-zeroes them at the start of every epoch, so each loss.backward() only walks its own batch's graph; running the training cell a second time simply continues training
# %%
import numpy as np
import torch
import torch.nn as nn
torch.manual_seed(0)
np.random.seed(0)
device = torch.device('cpu')


class Flags:
    seq_size = 8
    batch_size = 4
    embedding_size = 16
    lstm_size = 16
    gradients_norm = 5


flags = Flags()
# stand-in for the encoded corpus (in_text) and its one-step-shifted targets (out_text)
n_vocab = 20
in_text = np.random.randint(0, n_vocab, (flags.batch_size, 5 * flags.seq_size))
out_text = np.roll(in_text, -1, axis=1)
# %%
def get_batches(in_text, out_text, batch_size, seq_size):
    num_batches = np.prod(in_text.shape) // (seq_size * batch_size)
    for i in range(0, num_batches * seq_size, seq_size):
        yield in_text[:, i:i + seq_size], out_text[:, i:i + seq_size]


class RNNModule(nn.Module):
    def __init__(self, n_vocab, seq_size, embedding_size, lstm_size):
        super(RNNModule, self).__init__()
        self.seq_size = seq_size
        self.lstm_size = lstm_size
        self.embedding = nn.Embedding(n_vocab, embedding_size)
        self.lstm = nn.LSTM(embedding_size, lstm_size, batch_first=True)
        self.dense = nn.Linear(lstm_size, n_vocab)

    def forward(self, x, prev_state):
        embed = self.embedding(x)
        output, state = self.lstm(embed, prev_state)
        logits = self.dense(output)
        return logits, state

    def zero_state(self, batch_size):
        return (torch.zeros(1, batch_size, self.lstm_size),
                torch.zeros(1, batch_size, self.lstm_size))
# %%
net = RNNModule(n_vocab, flags.seq_size, flags.embedding_size, flags.lstm_size)
net = net.to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=0.001)
iteration = 0
# %%
for e in range(3):
    batches = get_batches(in_text, out_text, flags.batch_size, flags.seq_size)
    state_h, state_c = net.zero_state(flags.batch_size)

    # Transfer data to GPU
    state_h = state_h.to(device)
    state_c = state_c.to(device)
    for x, y in batches:
        iteration += 1

        # Tell it we are in training mode
        net.train()

        # Reset all gradients
        optimizer.zero_grad()

        # Transfer data to GPU
        x = torch.tensor(x).to(device)
        y = torch.tensor(y).to(device)

        logits, (state_h, state_c) = net(x, (state_h, state_c))
        loss = criterion(logits.transpose(1, 2), y)

        state_h = state_h.detach()
        state_c = state_c.detach()

        loss_value = loss.item()

        # Perform back-propagation
        loss.backward()

        _ = torch.nn.utils.clip_grad_norm_(net.parameters(), flags.gradients_norm)

        # Update the network's parameters
        optimizer.step()
    print('Epoch: {}'.format(e), 'Iteration: {}'.format(iteration), 'Loss: {}'.format(loss_value))
