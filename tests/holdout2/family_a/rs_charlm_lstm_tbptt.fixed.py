import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

text = "the quick brown fox jumps over the lazy dog while the cat sleeps " * 3
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text])
V = len(chars)


class CharLM(nn.Module):
    def __init__(self, emb=16, hid=32):
        super().__init__()
        self.embed = nn.Embedding(V, emb)
        self.lstm = nn.LSTM(emb, hid, batch_first=True)
        self.head = nn.Linear(hid, V)

    def forward(self, x, state=None):
        out, state = self.lstm(self.embed(x), state)
        return self.head(out), state


model = CharLM()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=2)
seq_len = 20
for epoch in range(2):
    state = None
    for i in range(0, len(data) - seq_len - 1, seq_len):
        x = data[i:i + seq_len].unsqueeze(0)
        y = data[i + 1:i + seq_len + 1].unsqueeze(0)
        if state is not None:
            state = tuple(s.detach() for s in state)
        logits, state = model(x, state)
        loss = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    scheduler.step()
