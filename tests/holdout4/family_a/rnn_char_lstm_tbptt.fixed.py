import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
text = "hello world, this is a tiny corpus for a tiny language model. " * 4
vocab = sorted(set(text))
stoi = {c: i for i, c in enumerate(vocab)}
data = torch.tensor([stoi[c] for c in text])


class CharLM(nn.Module):
    def __init__(self, V, E=16, H=32):
        super().__init__()
        self.emb = nn.Embedding(V, E)
        self.lstm = nn.LSTM(E, H, batch_first=True)
        self.head = nn.Linear(H, V)

    def forward(self, x, state):
        out, state = self.lstm(self.emb(x), state)
        return self.head(out), state


model = CharLM(len(vocab))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
seq_len = 16
state = None
for epoch in range(2):
    for i in range(0, len(data) - seq_len - 1, seq_len):
        x = data[i:i + seq_len].unsqueeze(0)
        y = data[i + 1:i + seq_len + 1].unsqueeze(0)
        if state is not None:
            state = tuple(s.detach() for s in state)
        logits, state = model(x, state)
        loss = F.cross_entropy(logits.view(-1, len(vocab)), y.view(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss", round(loss.item(), 3))
