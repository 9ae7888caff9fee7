# cause: recurrent_state_not_detached
# line: 39
# why: hidden is initialised once per epoch and re-assigned from model(data, hidden) every batch without repackaging, so BPTT runs into previous batches.
import torch
import torch.nn as nn

torch.manual_seed(0)

NTOKENS, NINP, NHID, NLAYERS = 30, 16, 16, 2


class RNNModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Embedding(NTOKENS, NINP)
        self.rnn = nn.LSTM(NINP, NHID, NLAYERS)
        self.decoder = nn.Linear(NHID, NTOKENS)

    def forward(self, input, hidden):
        output, hidden = self.rnn(self.encoder(input), hidden)
        return self.decoder(output), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(NLAYERS, bsz, NHID), weight.new_zeros(NLAYERS, bsz, NHID))


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def train_epoch(model, train_data, optimizer, criterion, bptt=5):
    model.train()
    hidden = model.init_hidden(train_data.size(1))
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i, bptt)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output.view(-1, NTOKENS), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        optimizer.step()


model = RNNModel()
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
criterion = nn.CrossEntropyLoss()
train_data = torch.randint(0, NTOKENS, (21, 4))
for epoch in range(1, 3):
    train_epoch(model, train_data, optimizer, criterion)
