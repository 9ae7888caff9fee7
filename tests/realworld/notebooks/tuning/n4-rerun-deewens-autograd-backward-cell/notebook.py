# source: https://github.com/Deewens/FYP-DRL-Comparison/blob/34140e4ae3bf684d861d59747cfb9b4d49fe9498/learning/pytorch/introduction/4_automatic_differentiation.ipynb
# scenario: rerun
# cause: double_backward
# root: cell 1 line 8
# order: 0 1 2 3 3
# expert: the loss is built once in the setup cell, so running the loss.backward() cell a second time (In[4] then In[5] in the saved notebook) backpropagates through the graph the first run already freed; rebuild z and the loss in the cell that calls backward so every run does its own forward pass
# %%
import torch
torch.manual_seed(0)
# %%
x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # Expected output

w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b

loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
# %%
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
# %%
loss.backward()
print(w.grad)
print(b.grad)
