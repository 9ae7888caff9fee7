import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB = 12


class Encoder(nn.Module):
    def __init__(self, emb=8, hid=16):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, emb)
        self.gru = nn.GRU(emb, hid, batch_first=True)

    def forward(self, src):
        _, h = self.gru(self.embed(src))
        return h


class StatefulDecoder(nn.Module):
    """Decodes a long target in chunks, keeping its state between chunks."""

    def __init__(self, emb=8, hid=16):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, emb)
        self.gru = nn.GRU(emb, hid, batch_first=True)
        self.out = nn.Linear(hid, VOCAB)
        self.hidden = None

    def reset(self, h0):
        self.hidden = h0

    def forward(self, tokens):
        out, self.hidden = self.gru(self.embed(tokens), self.hidden)
        self.hidden = self.hidden.detach()
        return self.out(out)


encoder, decoder = Encoder(), StatefulDecoder()
params = list(encoder.parameters()) + list(decoder.parameters())
opt = torch.optim.Adam(params, lr=3e-3)
src = torch.randint(0, VOCAB, (2, 7))
tgt = torch.randint(0, VOCAB, (2, 25))
chunk = 6
for epoch in range(2):
    decoder.reset(encoder(src))
    for i in range(0, tgt.shape[1] - 1, chunk):
        inp = tgt[:, i:i + chunk]
        gold = tgt[:, i + 1:i + 1 + chunk]
        logits = decoder(inp)[:, :gold.shape[1]]
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), gold.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
