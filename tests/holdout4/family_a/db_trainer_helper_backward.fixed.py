import torch
import torch.nn as nn
import torch.nn.functional as F



class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.history = []

    def compute_loss(self, batch):
        x, y = batch
        pred = self.model(x).squeeze(-1)
        loss = F.mse_loss(pred, y)
        return loss

    def train_step(self, batch):
        self.opt.zero_grad()
        loss = self.compute_loss(batch)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        self.history.append(loss.item())
        return loss.item()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
trainer = Trainer(model)
data = [(torch.randn(8, 4), torch.randn(8)) for _ in range(5)]
for epoch in range(2):
    for batch in data:
        trainer.train_step(batch)
    print("epoch", epoch, "last loss", trainer.history[-1])
