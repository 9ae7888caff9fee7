# %%
import torch
torch.manual_seed(0)

x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
# %%
z = torch.matmul(x, w)+b
# %%
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
# %%
loss.backward()
print(w.grad)
print(b.grad)
# %%
z = torch.matmul(x, w)+b
print(z.requires_grad)

with torch.no_grad():
    z_no_grad = torch.matmul(x, w)+b
print(z_no_grad.requires_grad)
# %%
z = torch.matmul(x, w)+b
z_det = z.detach()
print(z_det.requires_grad)
