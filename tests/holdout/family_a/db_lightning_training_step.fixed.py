import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LitRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
        self.logged = {}

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.net(x), y)
        self.logged["train_loss"] = loss.item()
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


model = LitRegressor()
optimizer = model.configure_optimizers()
loader = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]

for epoch in range(2):
    for batch_idx, batch in enumerate(loader):
        optimizer.zero_grad()
        loss = model.training_step(batch, batch_idx)
        loss.backward()
        optimizer.step()
