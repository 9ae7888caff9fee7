import torch
import torch.nn as nn

torch.manual_seed(0)

VOCAB, HID = 12, 16


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, HID)
        self.encoder = nn.GRU(HID, HID, batch_first=True)
        self.decoder = nn.GRUCell(HID, HID)
        self.out = nn.Linear(HID, VOCAB)


model = Seq2Seq()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.CrossEntropyLoss()
pairs = [(torch.randint(0, VOCAB, (3, 6)), torch.randint(0, VOCAB, (3, 5))) for _ in range(3)]

for epoch in range(2):
    for src, tgt in pairs:
        optimizer.zero_grad()
        loss = 0
        _, h = model.encoder(model.emb(src))
        h = h.squeeze(0)
        dec_in = tgt[:, 0]
        for t in range(1, tgt.size(1)):
            h = model.decoder(model.emb(dec_in), h)
            loss += criterion(model.out(h), tgt[:, t])
            dec_in = tgt[:, t]
        loss.backward()
        optimizer.step()
