# %%
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)

# CustomDataset of the report: random images, ten groups of labels used as event times
images = torch.rand((200, 1, 8, 8))
labels = torch.cat([torch.zeros((20,)) + k for k in range(10)], dim=0)
dataset = TensorDataset(images, labels)
# %%
from torchsurv_stub import Momentum, neg_partial_log_likelihood


class LitMomentum(nn.Module):
    """LitMomentum of helpers_momentum.py without the Lightning plumbing"""

    def __init__(self, backbone):
        super().__init__()
        self.learning_rate = 1e-3
        # Momentum
        self.model = backbone

    def configure_optimizers(self):
        optimizer = torch.optim.Adam(self.parameters(), lr=self.learning_rate)
        return optimizer

    def forward(self, x, event, time):
        return self.model(x, event, time)

    def training_step(self, batch, batch_idx):
        x, y = batch
        y[y == 0] = 10  # Offset 0 to prevent log(0)
        loss = self(x, torch.ones_like(y, device=y.device).bool(), y.float())
        return loss


resnet = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(16, 1))
# %%
BATCH_SIZE = 100  # batch size for training
FACTOR = 10  # Number of batch to keep in memory
resnet_momentum = Momentum(resnet, neg_partial_log_likelihood, batchsize=BATCH_SIZE // FACTOR, steps=FACTOR, rate=0.999)
model_momentum = LitMomentum(backbone=resnet_momentum)

# By using momentum, we can in theory reduce our batch size by factor and still have the same effective sample size
train_loader = DataLoader(dataset, batch_size=BATCH_SIZE // FACTOR, shuffle=False)
optimizer = model_momentum.configure_optimizers()
# %%
# trainer.fit(model_momentum, datamodule_momentum), three steps
for batch_idx, batch in enumerate(train_loader):
    loss = model_momentum.training_step(batch, batch_idx)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f'step {batch_idx}: loss {loss.item():.4f}')
    if batch_idx == 2:
        break
