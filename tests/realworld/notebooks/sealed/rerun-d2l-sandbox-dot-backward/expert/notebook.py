# expert fix of rerun-d2l-sandbox-dot-backward
# %%
import torch
torch.manual_seed(0)
x = torch.arange(4.0, requires_grad=True)
x
# %%
x.grad
# %%
x
# %%
y = 2 * torch.dot(x, x)
y.backward()
x.grad
