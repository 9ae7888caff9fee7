import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

vocab, bsz, bptt = 30, 4, 8
stream = torch.randint(0, vocab, (bsz, 49))


class WordLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(vocab, 16)
        self.rnn = nn.LSTM(16, 32, batch_first=True)
        self.dec = nn.Linear(32, vocab)

    def forward(self, x, state):
        out, state = self.rnn(self.emb(x), state)
        return self.dec(out), state


lm = WordLM()
opt = torch.optim.SGD(lm.parameters(), lr=0.5)
for epoch in range(2):
    state = None
    total = 0.0
    for i in range(0, stream.size(1) - 1, bptt):
        x = stream[:, i:i + bptt]
        y = stream[:, i + 1:i + 1 + bptt]
        if state is not None:
            state = tuple(s.detach() for s in state)
        logits, state = lm(x, state)
        loss = F.cross_entropy(logits.reshape(-1, vocab), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(lm.parameters(), 0.25)
        opt.step()
        total += loss.item()
    print(epoch, total)
