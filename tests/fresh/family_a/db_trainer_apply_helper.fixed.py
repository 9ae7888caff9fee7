import torch
import torch.nn as nn

torch.manual_seed(0)


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.crit = nn.CrossEntropyLoss()
        self.history = []

    def _apply(self, loss):
        loss.backward()
        self.opt.step()

    def train_batch(self, x, y):
        self.opt.zero_grad()
        loss = self.crit(self.model(x), y)
        self.history.append(loss.item())
        self._apply(loss)
        return loss.item()


model = nn.Sequential(nn.Linear(5, 12), nn.GELU(), nn.Linear(12, 3))
trainer = Trainer(model)
data = [(torch.randn(6, 5), torch.randint(0, 3, (6,))) for _ in range(3)]
for epoch in range(2):
    for xb, yb in data:
        trainer.train_batch(xb, yb)
print(trainer.history)
