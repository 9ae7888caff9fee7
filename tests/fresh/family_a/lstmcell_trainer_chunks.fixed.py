import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TBPTTTrainer:
    def __init__(self):
        self.cell = nn.LSTMCell(3, 7)
        self.head = nn.Linear(7, 3)
        self.opt = torch.optim.SGD(list(self.cell.parameters()) + list(self.head.parameters()), lr=0.1)
        self.hx = torch.zeros(2, 7)
        self.cx = torch.zeros(2, 7)

    def train_chunk(self, chunk):
        self.hx, self.cx = self.hx.detach(), self.cx.detach()
        loss = 0.0
        for t in range(chunk.size(0) - 1):
            self.hx, self.cx = self.cell(chunk[t], (self.hx, self.cx))
            loss = loss + F.mse_loss(self.head(self.hx), chunk[t + 1])
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


trainer = TBPTTTrainer()
series = torch.randn(20, 2, 3)
for chunk in series.split(5):
    print(trainer.train_chunk(chunk))
cell, head = trainer.cell, trainer.head
