# expert fix of running-unrolled-estimate-data-reset
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
Yest = 0.5 * torch.ones(100, 1)
# %%
for iTime in range(nTime):
    Yest = Yest + w * X
cost = torch.mean((Y - Yest) ** 2)
cost.backward()
with torch.no_grad():
    w -= gamma * w.grad
    w.grad.zero_()
print(cost.item())
