import torch
import torch.nn as nn

torch.manual_seed(0)


class Trainer:
    def __init__(self):
        self.model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        self.crit = nn.L1Loss()
        self.epoch_loss = 0.0
        self.n = 0

    def step(self, x, y):
        self.opt.zero_grad()
        loss = self.crit(self.model(x), y)
        self.epoch_loss = self.epoch_loss + loss.item()
        self.n += 1
        loss.backward()
        self.opt.step()

    def fit(self, batches, epochs=2):
        for _ in range(epochs):
            self.epoch_loss, self.n = 0.0, 0
            for x, y in batches:
                self.step(x, y)
            print("epoch loss", float(self.epoch_loss) / self.n)


batches = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(4)]
trainer = Trainer()
trainer.fit(batches)
model = trainer.model
