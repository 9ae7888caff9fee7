# source: variant of https://pytorch.org/tutorials/beginner/basics/autogradqs_tutorial.html
# scenario: out_of_order
# cause: no_grad_fn
# root: cell 4 line 5
# order: 0 1 2 3 4 2 3
# expert: the "Disabling Gradient Tracking" cell rebinds z to a tensor computed under torch.no_grad(); going back up and re-running the loss and backward cells then builds the loss from that z, which has no grad_fn. Keep the no-grad result under its own name (or recompute z with tracking, z = torch.matmul(x, w)+b) before re-running the loss cell.
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
    z = torch.matmul(x, w)+b
print(z.requires_grad)
# %%
z = torch.matmul(x, w)+b
z_det = z.detach()
print(z_det.requires_grad)
