# %%
import torch
from torch import nn
from coupling import PiecewiseCouplingTransform
torch.manual_seed(0)
# %%
class ConditionerNet(nn.Module):
    def __init__(self, in_features, out_features, hidden_features=32):
        super().__init__()
        self.hidden_features = hidden_features
        self.net = nn.Sequential(
            nn.Linear(in_features, hidden_features), nn.ReLU(),
            nn.Linear(hidden_features, out_features), nn.ReLU(),
        )

    def forward(self, x):
        return self.net(x)


def create_net(in_features, out_features):
    return ConditionerNet(in_features, out_features, hidden_features=32)
# %%
mask = torch.tensor([1, 0, 1, 0])
flow = PiecewiseCouplingTransform(mask, create_net, num_bins=8)
optimizer = torch.optim.Adam(flow.parameters(), lr=1e-3)
x = torch.rand(64, 4) * 0.98 + 0.01  # data on the unit cube
# %%
for step in range(5):
    z, logabsdet = flow(x)
    loss = -logabsdet.mean()  # uniform base density on [0, 1]^d
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
