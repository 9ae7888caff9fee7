# source: variant of https://github.com/PacktPublishing/Modern-Computer-Vision-with-PyTorch/blob/master/Chapter02/Auto_gradient_of_tensors.ipynb (the book's notebook as in the repository, with torch.manual_seed(0) added; here the cell with loss.backward() is run a second time after the gradients were printed and the updated weights computed, as one does when stepping through the notebook again)
# scenario: rerun
# cause: double_backward
# root: cell 7 line 1
# order: 0 1 2 3 4 5 6 7 8 9 10 8
# expert: loss is computed once, in its own cell, and its graph is freed by the first loss.backward(); re-running only the backward cell backpropagates the same loss a second time. Recompute the loss in the cell that calls backward (loss = feed_forward(x, y, W) before loss.backward()), so each run builds a fresh graph (zero the W grads first if the rerun should not accumulate)
# %%
import numpy as np
import torch
torch.manual_seed(0)
x = torch.tensor([[2., -1.], [1., 1.]], requires_grad=True)
print(x)
# %%
out = x.pow(2).sum()
# %%
out.backward()
# %%
x.grad
# %%
x = np.array([[1,1]])
y = np.array([[0]])
x, y = [torch.tensor(i).float() for i in [x,y]]
# %%
W = [
    np.array([[-0.0053, 0.3793],
              [-0.5820, -0.5204],
              [-0.2723, 0.1896]], dtype=np.float32).T, 
    np.array([-0.0140, 0.5607, -0.0628], dtype=np.float32), 
    np.array([[ 0.1528, -0.1745, -0.1135]], dtype=np.float32).T, 
    np.array([-0.5516], dtype=np.float32)
]

W = [torch.tensor(i, requires_grad=True) for i in W]
# %%
def feed_forward(inputs, outputs, weights):
    pre_hidden = torch.matmul(inputs,weights[0])+ weights[1]
    hidden = 1/(1+torch.exp(-pre_hidden))
    out = torch.matmul(hidden, weights[2]) + weights[3]
    mean_squared_error = torch.mean(torch.square(out - outputs))
    return mean_squared_error
# %%
loss = feed_forward(x, y, W)
loss
# %%
loss = feed_forward(x, y, W)
loss.backward()
# %%
print([w.grad for w in W])
# %%
updated_W = [w-w.grad for w in W]
updated_W
