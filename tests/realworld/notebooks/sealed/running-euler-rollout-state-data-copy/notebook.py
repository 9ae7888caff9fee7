# source: https://discuss.pytorch.org/t/runtimeerror-trying-to-backward-through-the-graph-a-second-time-but-the-buffers-have-already-been-freed-specify-retain-graph-true-when-calling-backward-the-first-time/6795/4 (variant: a learned Euler rollout with nn.Linear and Adam instead of y = y + w*x; the rollout state is rewound with state.data.copy_)
# scenario: running_total
# cause: tensor_reused_across_iterations
# root: cell 1 line 2
# order: 0 1 2 1 2
# expert: state.data.copy_(x0) rewinds the values but state remains the output of the previous rollout's graph, so the next rollout backpropagates into it; start each rollout from a fresh tensor (state = x0.clone())
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
state.data.copy_(x0)
# %%
for k in range(4):
    state = state + 0.1 * torch.tanh(dynamics(state))
loss = F.mse_loss(state, target)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
