# source: https://github.com/pytorch/tutorials/issues/38
# scenario: rerun
# cause: double_backward
# root: cell 1 line 1
# order: 0 1 2
# expert: y = x**2 needs its saved input for backward, so the second y.backward(gradient) in the later cell fails once the first backward freed the graph; pass retain_graph=True (retain_variables in the old API) to the first backward
# %%
import torch
torch.manual_seed(0)
x = torch.ones(2, 2, requires_grad=True)
y = x ** 2
# %%
y.backward(torch.ones(2, 2))
print("first backward of x is:")
print(x.grad)
# %%
z = y * y
gradient = torch.randn(2, 2)
y.backward(gradient)
print(x.grad)
