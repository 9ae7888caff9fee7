# expert fix of running-euler-rollout-state-data-copy
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
dynamics = nn.Linear(3, 3)
optimizer = torch.optim.Adam(dynamics.parameters(), lr=1e-2)
x0 = torch.randn(16, 3)
target = torch.randn(16, 3)
state = x0.clone()      # rollout state, allocated once
# %%
# rewind the rollout to the start state
state = x0.clone()
# %%
for k in range(4):
    state = state + 0.1 * torch.tanh(dynamics(state))
loss = F.mse_loss(state, target)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
