# source: https://discuss.pytorch.org/t/which-is-freed-which-is-not/8636
# scenario: earlier_cell
# cause: double_backward
# root: cell 1 line 1
# expert: y is computed once in an earlier cell and the loop cell calls y.backward() on the same graph every iteration; compute y = torch.sum(x(a)) inside the loop so each backward has its own graph
# %%
import torch
torch.manual_seed(0)
x = torch.nn.Linear(3, 3)
a = torch.randn(2, 3)
# %%
y = torch.sum(x(a))
# %%
for i in range(100):
    y.backward()
