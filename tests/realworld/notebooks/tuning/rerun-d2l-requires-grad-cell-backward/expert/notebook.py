# expert fix of rerun-d2l-requires-grad-cell-backward
# %%
# A simple example
import torch
torch.manual_seed(0)
x = torch.arange(4.0)
x
# %%
x.requires_grad_(True)
# %%
if x.grad is not None:
    x.grad.zero_()
y = 2 * torch.dot(x, x)
y.backward()
x.grad
