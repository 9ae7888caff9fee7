# %%
import torch
# %%
x = torch.tensor(1.)
y = torch.tensor(2.)
w = torch.tensor(1., requires_grad=True)
# %%
# forward pass
# 因为 w.requires_grad=True, 所以一旦利用w开始计算，PyTorch就会自动建立computation graph
y_hat = w * x
loss = (y_hat - y) ** 2
print(loss)
# %%
# backward pass: redo the forward pass so each run has its own graph
y_hat = w * x
loss = (y_hat - y) ** 2
w.grad = None
loss.backward()
w.grad
