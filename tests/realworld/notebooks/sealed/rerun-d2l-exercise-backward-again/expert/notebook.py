# expert fix of rerun-d2l-exercise-backward-again
# %%
import torch
torch.manual_seed(0)
x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
# %%
y = torch.dot(x, x)
y.backward(retain_graph=True)
print(x.grad)
# %%
y.backward()
print(x.grad)
