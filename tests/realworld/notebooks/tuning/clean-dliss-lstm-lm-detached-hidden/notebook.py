# source: https://github.com/dpressel/dliss-tutorial/issues/1
# scenario: clean
# order: 0 1 2 3 3
# expert: none needed: the LSTM state is carried from batch to batch and across re-runs of the training cell, but it is detached at every step (truncated BPTT)
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
vocab, bsz, bptt = 40, 4, 6
stream = torch.randint(0, vocab, (bsz * bptt * 5 + 1,))
n = (len(stream) - 1) // bsz
data = stream[:n * bsz].view(bsz, n)
targets = stream[1:n * bsz + 1].view(bsz, n)
# %%
class LSTMLanguageModel(nn.Module):
    def __init__(self, vocab, dsz=16, hsz=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dsz)
        self.rnn = nn.LSTM(dsz, hsz, batch_first=True)
        self.proj = nn.Linear(hsz, vocab)
        self.hsz = hsz

    def init_hidden(self, batchsz):
        return (torch.zeros(1, batchsz, self.hsz), torch.zeros(1, batchsz, self.hsz))

    def forward(self, x, hidden):
        out, hidden = self.rnn(self.embed(x), hidden)
        return self.proj(out), hidden

model = LSTMLanguageModel(vocab)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
# %%
hidden = model.init_hidden(bsz)
# %%
for i in range(0, n - bptt + 1, bptt):
    x, y = data[:, i:i + bptt], targets[:, i:i + bptt]
    # detach the hidden states: truncated backprop, but start from the previous state
    hidden = tuple(h.detach() for h in hidden)
    logits, hidden = model(x, hidden)
    loss = F.cross_entropy(logits.reshape(-1, vocab), y.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(loss.item())
