import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PriorRegularizedModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.prior_net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 8))
        self.backbone = nn.Linear(10, 8)
        self.head = nn.Linear(8, 1)
        self.context = torch.randn(1, 4)
        self.prior_mean = None

    def setup(self, stage="fit"):
        self.prior_mean = self.prior_net(self.context)

    def training_step(self, batch, batch_idx):
        x, y = batch
        self.prior_mean = self.prior_net(self.context)
        feat = torch.relu(self.backbone(x))
        reg = ((feat - self.prior_mean) ** 2).mean()
        return F.mse_loss(self.head(feat), y) + 0.1 * reg


model = PriorRegularizedModel()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loader = [(torch.randn(6, 10), torch.randn(6, 1)) for _ in range(3)]

model.setup("fit")
for epoch in range(2):
    for batch_idx, batch in enumerate(loader):
        loss = model.training_step(batch, batch_idx)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
