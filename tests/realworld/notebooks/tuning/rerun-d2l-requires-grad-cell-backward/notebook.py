# source: https://github.com/Jason-cs18/Awesome-DL-Development/blob/main/DL_review/preliminaries/automatic_differentiation.ipynb
# scenario: rerun
# cause: double_backward
# root: cell 1 line 2
# order: 0 1 2 2
# expert: the backward cell was run twice on the y built in the previous cell; recompute y (after zeroing x.grad) in the cell that calls backward, as the notebook's next cell does
# %%
# A simple example
import torch
torch.manual_seed(0)
x = torch.arange(4.0)
x
# %%
x.requires_grad_(True)
y = 2 * torch.dot(x, x)
y
# %%
y.backward()
x.grad
