import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 2))
        self.decoder = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 16))

    def forward(self, x):
        return self.decoder(self.encoder(x))


class EmbeddingSnapshot:
    """Keeps a copy of the latent codes after each epoch for plotting."""

    def __init__(self, probe):
        self.probe = probe
        self.snapshots = []

    def on_epoch_end(self, model):
        with torch.no_grad():
            z = model.encoder(self.probe)
        self.snapshots.append(z.numpy())


X = torch.randn(64, 16)
ae = AutoEncoder()
opt = torch.optim.Adam(ae.parameters(), lr=1e-3)
snapshot = EmbeddingSnapshot(X[:10])
for epoch in range(3):
    for xb in X.split(16):
        loss = F.mse_loss(ae(xb), xb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    snapshot.on_epoch_end(ae)
