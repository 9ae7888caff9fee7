# source: variant of https://github.com/pytorch/tutorials/issues/38 (the autograd section of "Introduction to PyTorch for former Torchies", beginner_source/former_torchies/autograd_tutorial.py as later rewritten with tensors, run as notebook cells; the issue notes its y = x + 2 example works even without retaining the graph, and soumith answers that with y = x^2, whose backward needs the saved forward value, the second backward fails; this variant takes that y = x * x and drops the retain flag from the first backward, as the reporter tried)
# scenario: earlier_cell
# cause: double_backward
# root: cell 1 line 2
# expert: y = x * x saves x for its backward, and the first y.backward(torch.ones(2, 2)) in the earlier cell frees those saved values, so the second y.backward(gradient) on the same graph fails. As the tutorial and the maintainer's answer say, the first backward has to keep the graph: y.backward(torch.ones(2, 2), retain_graph=True) (the tutorial's "retain_variables flag will prevent the internal buffers from being freed").
# %%
import torch
torch.manual_seed(0)

x = torch.ones(2, 2, requires_grad=True)
print(x)
# %%
y = x * x
y.backward(torch.ones(2, 2))
# the retain_variables flag will prevent the internal buffers from being freed
print(x.grad)
# %%
z = y * y
print(z)
# %%
# just backprop random gradients

gradient = torch.randn(2, 2)

# this would fail if we didn't specify
# that we want to retain variables
y.backward(gradient)

print(x.grad)
