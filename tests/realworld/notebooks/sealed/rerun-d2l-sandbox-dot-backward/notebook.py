# source: https://github.com/youssef-mansor/LeNet-5/blob/b4b84d750a92535c9050dfdf70961c94878967e7/sand_box.ipynb
# scenario: rerun
# cause: double_backward
# root: cell 2 line 1
# order: 0 1 2 3 3
# expert: y is built once in its own cell, so re-running the y.backward() cell backpropagates through a graph that was already freed; build y in the cell that calls backward (recompute the forward before every backward)
# %%
import torch
torch.manual_seed(0)
x = torch.arange(4.0, requires_grad=True)
x
# %%
x.grad
# %%
y = 2 * torch.dot(x, x)
y
# %%
y.backward()
x.grad
