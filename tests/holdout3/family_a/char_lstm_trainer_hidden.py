# cause: recurrent_state_not_detached
# line: 43
# why: Trainer keeps self.hidden from the previous batch and feeds it into the LSTM without detaching, so backward runs into the previous batch's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

text = "the quick brown fox jumps over the lazy dog " * 4
vocab = sorted(set(text))
stoi = {c: i for i, c in enumerate(vocab)}
data = torch.tensor([stoi[c] for c in text])


class CharLM(nn.Module):
    def __init__(self, v, emb=16, hid=32):
        super().__init__()
        self.emb = nn.Embedding(v, emb)
        self.lstm = nn.LSTM(emb, hid, batch_first=True)
        self.head = nn.Linear(hid, v)

    def forward(self, x, hidden=None):
        out, hidden = self.lstm(self.emb(x), hidden)
        return self.head(out), hidden


class Trainer:
    def __init__(self, model, seq_len=12, batch=4):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=5e-3)
        self.seq_len, self.batch = seq_len, batch
        self.hidden = None

    def batches(self):
        n = (len(data) - 1) // (self.batch * self.seq_len) * self.batch * self.seq_len
        xs = data[:n].view(self.batch, -1)
        ys = data[1:n + 1].view(self.batch, -1)
        for i in range(0, xs.size(1), self.seq_len):
            yield xs[:, i:i + self.seq_len], ys[:, i:i + self.seq_len]

    def train_batch(self, x, y):
        logits, self.hidden = self.model(x, self.hidden)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
        self.opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        return loss.item()

    def fit(self, epochs=2):
        for ep in range(epochs):
            self.hidden = None
            losses = [self.train_batch(x, y) for x, y in self.batches()]
            print(ep, sum(losses) / len(losses))


model = CharLM(len(vocab))
trainer = Trainer(model)
trainer.fit()
