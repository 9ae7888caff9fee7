# source: https://github.com/pytorch/tutorials/blob/05f04cb4463d507cc90f891db82d8c2685e14b53/beginner_source/blitz/autograd_tutorial.py
# scenario: out_of_order
# order: 0 1 2 3 4 5 6 7 8 2 3
# cause: tensor_reused_across_iterations
# root: cell 6 line 3
# expert: The "crazy things" cell rebinds y to x * 2 * 2 ... and the next cell backpropagates that graph with y.backward(gradients); going back up and re-running "z = y * y * 3; out = z.mean()" then out.backward() builds on the rebound y, whose graph was already freed. Keep the later demo from clobbering the names the earlier cells depend on (or re-run the cells that define x and y first); the fix used here gives the demo its own names.
# %%
import torch

torch.manual_seed(0)
# Create a tensor and set requires_grad=True to track computation with it
x = torch.ones(2, 2, requires_grad=True)
print(x)
# %%
# Do an operation of tensor:
y = x + 2
print(y)
print(y.grad_fn)
# %%
# Do more operations on y
z = y * y * 3
out = z.mean()

print(z, out)
# %%
# Let's backprop now
# Because ``out`` contains a single scalar, ``out.backward()`` is
# equivalent to ``out.backward(torch.tensor(1))``.
out.backward()
# %%
# print gradients d(out)/dx
print(x.grad)
# %%
# ``.requires_grad_( ... )`` changes an existing Tensor's ``requires_grad``
# flag in-place. The input flag defaults to ``True`` if not given.
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)
# %%
# You can do many crazy things with autograd!
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2

print(y)
# %%
gradients = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(gradients)

print(x.grad)
# %%
# You can also stops autograd from tracking history on Tensors
# with requires_grad=True by wrapping the code block in
# ``with torch.no_grad():``
print(x.requires_grad)
print((x ** 2).requires_grad)

with torch.no_grad():
    print((x ** 2).requires_grad)
