import torch
import torch.nn as nn
import torch.nn.functional as F


class SeqTrainer:
    def __init__(self, d_in=4, hidden=20, bptt=12):
        self.lstm = nn.LSTM(d_in, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)
        self.opt = torch.optim.Adam(list(self.lstm.parameters()) + list(self.head.parameters()), lr=3e-3)
        self.bptt = bptt
        self.losses = []

    def fit_sequence(self, x, y):
        state = None
        for start in range(0, x.shape[1], self.bptt):
            if state is not None:
                state = tuple(s.detach() for s in state)   # truncate BPTT here
            out, state = self.lstm(x[:, start:start + self.bptt], state)
            loss = F.mse_loss(self.head(out), y[:, start:start + self.bptt])
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.losses.append(loss.item())


torch.manual_seed(0)
x = torch.randn(3, 60, 4)
y = x[..., :1].cumsum(1) * 0.05
trainer = SeqTrainer()
for epoch in range(2):
    trainer.fit_sequence(x, y)
    print("epoch", epoch, round(trainer.losses[-1], 4))
