import torch
import torch.nn as nn
import torch.nn.functional as F



class AccumTrainer:
    def __init__(self, model, accum_steps=2):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.accum_steps = accum_steps
        self.pending = 0.0
        self.n = 0

    def step(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        self.pending = self.pending + loss / self.accum_steps
        self.n += 1
        if self.n % self.accum_steps == 0:
            self.opt.zero_grad()
            self.pending.backward()
            self.opt.step()
            self.pending = 0.0
        return loss.item()


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(7, 20), nn.ReLU(), nn.Linear(20, 3))
trainer = AccumTrainer(net, accum_steps=2)
X = torch.randn(64, 7)
Y = torch.randint(0, 3, (64,))
for epoch in range(2):
    for i in range(0, 64, 8):
        last = trainer.step(X[i:i + 8], Y[i:i + 8])
    print("epoch", epoch, "loss", last)
