# expert fix of rerun-torchies-second-backward-no-retain
# %%
import torch
torch.manual_seed(0)
x = torch.ones(2, 2, requires_grad=True)
y = x ** 2
# %%
y.backward(torch.ones(2, 2), retain_graph=True)
print("first backward of x is:")
print(x.grad)
# %%
z = y * y
gradient = torch.randn(2, 2)
y.backward(gradient)
print(x.grad)
