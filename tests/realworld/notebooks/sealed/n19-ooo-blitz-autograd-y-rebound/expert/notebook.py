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
x2 = torch.randn(3, requires_grad=True)
y2 = x2 * 2
while y2.data.norm() < 1000:
    y2 = y2 * 2

print(y2)
# %%
gradients = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y2.backward(gradients)

print(x2.grad)
# %%
# You can also stops autograd from tracking history on Tensors
# with requires_grad=True by wrapping the code block in
# ``with torch.no_grad():``
print(x2.requires_grad)
print((x2 ** 2).requires_grad)

with torch.no_grad():
    print((x2 ** 2).requires_grad)
