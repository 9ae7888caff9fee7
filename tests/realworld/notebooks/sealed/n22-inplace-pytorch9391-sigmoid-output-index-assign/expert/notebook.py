# source: https://github.com/pytorch/pytorch/issues/9391
# %%
import torch
a = torch.tensor([1, 2, 3.], requires_grad=True)
b = a.sigmoid()
b
# %%
# overwrite the middle entry
b = b.clone()
b[1] = 2
b
# %%
b.sum().backward()
a.grad
