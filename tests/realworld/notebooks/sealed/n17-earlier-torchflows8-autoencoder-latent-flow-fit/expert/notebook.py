# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from normalizing_flows_stub import Flow, RealNVP  # stands in for torchflows (normalizing_flows)
torch.manual_seed(0)

x_train = torch.randn(128, 30)
# %%
class AutoEncoder(nn.Module):
    def __init__(self, n_in=30, n_latent=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_in, 16), nn.ReLU(), nn.Linear(16, n_latent))
        self.decoder = nn.Sequential(nn.Linear(n_latent, 16), nn.ReLU(), nn.Linear(16, n_in))

    def forward(self, x):
        return self.decoder(self.encoder(x))

autoencoder = AutoEncoder()
ae_optimizer = torch.optim.Adam(autoencoder.parameters(), lr=1e-2)
for epoch in range(30):
    ae_optimizer.zero_grad()
    rec_loss = F.mse_loss(autoencoder(x_train), x_train)
    rec_loss.backward()
    ae_optimizer.step()
print('reconstruction loss', rec_loss.item())
# %%
autoencoder.eval()
with torch.no_grad():
    z_train = autoencoder.encoder(x_train)   # latent space of the autoencoder
print(z_train.shape)
# %%
flow = Flow(bijection=RealNVP(event_shape=(4,)))
flow.fit(z_train, n_epochs=3, lr=0.01, batch_size=32)
print(flow.log_prob(z_train.detach()).mean().item())
