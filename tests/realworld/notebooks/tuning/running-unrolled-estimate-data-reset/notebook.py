# source: https://discuss.pytorch.org/t/runtimeerror-trying-to-backward-through-the-graph-a-second-time-but-the-buffers-have-already-been-freed-specify-retain-graph-true-when-calling-backward-the-first-time/6795/4
# scenario: running_total
# cause: tensor_reused_across_iterations
# root: cell 1 line 2
# order: 0 1 2 1 2
# expert: resetting the running estimate through Yest.data only rewrites its values; Yest is still the last node of the previous step's graph, so the next unrolled step backpropagates into it; create a fresh initial estimate (Yest = 0.5 * torch.ones(100, 1)) at the start of each step, as the post's working line does
# %%
import torch
torch.manual_seed(0)
# GOAL: gradient descent on an unrolled network y(t) = y(t-1) + w*x(t)
X = torch.randn(100, 1)
Y = torch.randn(100, 1)
nTime = 5        # number of unrolling time steps
gamma = 0.1
w = torch.randn(1, 1, requires_grad=True)
Yest = 0.5 * torch.ones(100, 1)   # allocate the output estimate once
# %%
# start of a GD iteration: set the output estimate back to its initial value
Yest.data.zero_().add_(0.5)
# %%
for iTime in range(nTime):
    Yest = Yest + w * X
cost = torch.mean((Y - Yest) ** 2)
cost.backward()
with torch.no_grad():
    w -= gamma * w.grad
    w.grad.zero_()
print(cost.item())
