import torch
import torch.nn as nn

torch.manual_seed(0)


class RNNModel(nn.Module):
    def __init__(self, ntoken=20, ninp=8, nhid=12):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid = nhid

    def forward(self, inp, hidden):
        emb = self.encoder(inp)
        output, hidden = self.rnn(emb, hidden)
        return self.decoder(output), hidden

    def init_hidden(self, bsz):
        return (torch.zeros(1, bsz, self.nhid), torch.zeros(1, bsz, self.nhid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


model = RNNModel()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
train_data = torch.randint(0, 20, (25, 3))
bptt = 6
hidden = model.init_hidden(3)
for i in range(0, train_data.size(0) - 1, bptt):
    seq_len = min(bptt, train_data.size(0) - 1 - i)
    data, targets = train_data[i:i + seq_len], train_data[i + 1:i + 1 + seq_len]
    model.zero_grad()
    hidden = repackage_hidden(hidden)
    output, hidden = model(data, hidden)
    loss = criterion(output.view(-1, 20), targets.reshape(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    optimizer.step()
    print(i, loss.item())
