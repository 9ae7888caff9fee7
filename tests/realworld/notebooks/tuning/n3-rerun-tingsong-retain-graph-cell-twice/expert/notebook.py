# %%
import torch
torch.manual_seed(10)
w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
# %%
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
# %%
y.backward(retain_graph=True)
print(w.grad)
# %%
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
y.backward()
print(w.grad)
